/**
 * A migrated seed's old in-file index given back (legacy-index-drop.ts), timed in-process on a
 * copy of a scale seed whose new index has been rebuilt (`search-timing.ts <copy> --drain`): each
 * slice's transaction on the relay's file (the longest is the longest a commit can wait for it),
 * the relay file's size and freelist before and after, then the same after `--write` new entries
 * (their pages taken from the freelist). Never run it on the kept seed itself.
 *
 *   node --import tsx bench/scale/legacy-drop.ts <copy of the seed's data dir> [--write 200000]
 *
 * `--assume-rebuilt` sets the index file's mark past the old index without rebuilding (the new
 * index then misses the old entries: for timing the give-back alone, on a copy thrown away after).
 */
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../test/support/seed-log.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: legacy-drop.ts <copy of a seed data dir> [--write <entries>]');
const writeArg = process.argv.indexOf('--write');
const toWrite = writeArg > 0 ? Number(process.argv[writeArg + 1]) : 0;
const file = join(dir, 'hookport.sqlite');
const db = openDatabase(file);
const index = createSearchIndex(db);

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const size = (label: string): void => {
  db.pragma('wal_checkpoint(TRUNCATE)');
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
  console.log(
    `${label}: file ${mb(statSync(file).size)}, ${pages} pages, ${free} free (${mb(free * 4096)}),`,
    `in use ${mb((pages - free) * 4096)}; load ${load()}`,
  );
};

if (process.argv.includes('--assume-rebuilt')) {
  db.exec(
    'UPDATE search.delivery_search_rebuilt SET upto = (SELECT upto FROM delivery_search_legacy)',
  );
}
const marks = db
  .prepare(
    `SELECT (SELECT upto FROM delivery_search_legacy) AS legacy,
       (SELECT upto FROM search.delivery_search_rebuilt) AS rebuilt`,
  )
  .get();
console.log('marks', marks);
size('before');

const times = new Map<string, { slices: number; rows: number; ms: number[] }>();
const started = performance.now();
for (let more = true; more;) {
  const at = performance.now();
  const slice = index.dropLegacySome();
  const ms = performance.now() - at;
  more = slice.more;
  const step = times.get(slice.step) ?? { slices: 0, rows: 0, ms: [] };
  step.slices += 1;
  step.rows += slice.rows;
  step.ms.push(ms);
  times.set(slice.step, step);
}
const total = performance.now() - started;
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
for (const [step, { slices, rows, ms }] of times) {
  console.log(
    step.padEnd(10),
    `${slices} slices, ${rows} rows; ms per slice p50 ${pct(ms, 0.5).toFixed(2)},`,
    `p99 ${pct(ms, 0.99).toFixed(2)}, max ${Math.max(...ms).toFixed(2)}`,
  );
}
console.log(`given back in ${(total / 1000).toFixed(1)} s of slices back to back`);
size('after');

if (toWrite > 0) {
  const body = (i: number): string =>
    JSON.stringify({ n: i, city: 'Bergen', note: 'new entry '.repeat(140) });
  const at = Date.now();
  for (let done = 0; done < toWrite; done += 10_000) {
    seedLog(db, 'wh_after_drop', 10_000, {
      bodyOf: body,
      atOf: (i) => at + (done + i) * 1000,
      labelOf: () => 'Accepted',
    });
  }
  size(`after ${toWrite} new entries (~1.5 KB each)`);
}
index.close();
db.close();
