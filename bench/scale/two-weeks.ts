import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Db } from '../../src/main/store/sqlite/db.js';
import { openDatabase } from '../../src/main/store/sqlite/db.js';
import { createRetention } from '../../src/main/store/sqlite/retention.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';
import { seedWeek } from './seed-week.js';

const DAY_MS = 24 * 3_600_000;
const POLICY = { days: 7, minPerWebhook: 50, dedupeWindowMs: 7 * DAY_MS };
const mb = (bytes: number): number => Math.round(bytes / 1e6);

function indexAll(db: Db): void {
  const index = createSearchIndex(db);
  while (index.pending() > 0) index.indexSome(2_000);
  mergeAll(db);
}

/** As the relay's indexer does once nothing is queued: merges drop what retention deleted. */
function mergeAll(db: Db): void {
  const index = createSearchIndex(db);
  while (index.mergeSome(2_000));
}

/**
 * The file over two simulated weeks: 8 days seeded and pruned to 7, then a day added and pruned
 * at a time, seven times, each time with the index built and the WAL checkpointed. SQLite reuses
 * the pages that deletes free (its freelist) for the next day's entries, so the file stops
 * growing once a week is kept: no VACUUM and no auto_vacuum (which would move pages on every
 * commit, or rewrite the whole file at once).
 */
export async function twoWeeksOfFileSize(entries: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hookport-scale-weeks-'));
  const file = join(dir, 'hookport.sqlite');
  try {
    const db = openDatabase(file);
    const uids = Array.from({ length: 20 }, (_, i) => `wh_${String(i).padStart(24, 'a')}`);
    const end = Date.now();
    const perDay = Math.round(entries / 8);
    const rows: string[] = [];
    const measure = (label: string, removed: number, pruneMs: number): void => {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const free = db.pragma('freelist_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      rows.push(
        `| ${label} | ${removed.toLocaleString('en-US')} | ${(pruneMs / 1000).toFixed(1)} s | ${mb(statSync(file).size)} MB | ${mb(free * pageSize)} MB |`,
      );
    };
    seedWeek(db, { entries, mainShare: 0.6, webhookUids: uids, days: 8, endAt: end });
    indexAll(db);
    measure('8 days seeded', 0, 0);
    const retention = createRetention(db);
    let started = performance.now();
    let removed = await retention.prune(POLICY, end);
    mergeAll(db);
    measure('pruned to 7 days', removed, performance.now() - started);
    for (let day = 1; day <= 7; day++) {
      seedWeek(db, {
        entries: perDay,
        mainShare: 0.6,
        webhookUids: uids,
        days: 1,
        endAt: end + day * DAY_MS,
        firstSerial: entries + day * perDay,
      });
      indexAll(db);
      started = performance.now();
      removed = await retention.prune(POLICY, end + day * DAY_MS);
      mergeAll(db);
      measure(`day ${7 + day}: a day added, a day pruned`, removed, performance.now() - started);
    }
    db.close();
    console.log(
      `\nThe file over two weeks (${entries.toLocaleString('en-US')} entries a week and a day; ${perDay.toLocaleString('en-US')} a day), prunes in-process\n`,
    );
    console.log('| step | pruned | prune took | file | of it free pages |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const line of rows) console.log(line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
