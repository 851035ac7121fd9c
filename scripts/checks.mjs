// The static checks `npm test` runs first: type-aware lint on one core, formatting and the two
// type checks on the other (run one after another, they took 110 s on CI's two cores; side by
// side about 70). Each check's output is printed whole when it ends, so the log stays readable;
// the first failure fails the run, after both lanes have finished.
import { spawn } from 'node:child_process';

const bin = (name) => new URL(`../node_modules/.bin/${name}`, import.meta.url).pathname;

const LANES = [
  [['eslint', ['--max-warnings', '0', '.']]],
  [
    ['prettier', ['--check', '--log-level', 'warn', '.']],
    ['tsc', ['--noEmit', '-p', 'tsconfig.node.json']],
    ['tsc', ['--noEmit', '-p', 'tsconfig.web.json']],
  ],
];

function run(name, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(bin(name), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ ok: false, text: `${error.message}\n` }));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      const text = Buffer.concat(output).toString('utf8');
      process.stdout.write(`> ${name} ${args.join(' ')} (${seconds} s)\n${text}`);
      resolve({ ok: code === 0 });
    });
  });
}

async function lane(steps) {
  for (const [name, args] of steps) {
    if (!(await run(name, args)).ok) return false;
  }
  return true;
}

const results = await Promise.all(LANES.map(lane));
if (results.includes(false)) {
  console.error('Static checks failed (above).');
  process.exit(1);
}
