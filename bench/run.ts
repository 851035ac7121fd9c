/**
 * `npm run bench`: every suite prints its own table of numbers and the ratios against a baseline
 * measured in the same run. Benchmarks never pass or fail; they report.
 *   npm run bench                 all suites
 *   npm run bench -- ingress      only the suites whose name contains "ingress"
 */
import { suites } from './suites/index.js';

// Suite names are words: a suite's own options (`--entries 40000`, `--cpu-prof /tmp/p`) are not.
const only = process.argv.slice(2).filter((word) => /^[a-z][\w-]*$/i.test(word));
const selected = suites.filter((s) => only.length === 0 || only.some((o) => s.name.includes(o)));
console.log(`Hookport benchmarks on ${process.platform}/${process.arch}, Node ${process.version}`);
for (const suite of selected) {
  console.log(`\n## ${suite.name}\n`);
  await suite.run();
}
