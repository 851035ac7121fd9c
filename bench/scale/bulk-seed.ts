/**
 * The scale benchmark's seed, fast enough for a million entries: the week (seed-week.ts) written
 * into a relay's SQLite file in transactions of 50,000 entries without a journal or fsync (a
 * seed cut short is seeded again), then the search index built for all but the newest entries
 * with one `INSERT … SELECT` per 50,000 (the relay's own row, `indexRows`), and its segments
 * merged as the relay's indexer leaves them once quiet (no level of 4 or more). The file is in WAL
 * mode again when done. The relay's own paced indexer took about 2.4 ms an entry here.
 */
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { createSearchIndex, indexRows } from '../../src/main/store/sqlite/search-index.js';
import { attachIndexFile } from '../../src/main/store/sqlite/search-index-file.js';
import { seedWeek, type SeededWeek, type WeekShape } from './seed-week.js';

const CHUNK = 50_000;

export interface BulkSeeded extends SeededWeek {
  seededMs: number;
  indexedMs: number;
  mergedMs: number;
}

export function bulkSeed(
  file: string,
  shape: WeekShape,
  leaveQueued: number,
  say: (line: string) => void,
): BulkSeeded {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    let started = performance.now();
    const week = seedWeek(db, {
      ...shape,
      chunk: CHUNK,
      progress: (written) => {
        if (written % 200_000 === 0) say(`seeded ${written.toLocaleString('en-US')}`);
      },
    });
    const seededMs = performance.now() - started;

    createSearchIndex(db).close(); // the index's file and merge settings, as the relay writes them
    attachIndexFile(db, file);
    started = performance.now();
    const range = db.prepare<[], { low: number; high: number }>(
      'SELECT min(delivery_rowid) AS low, max(delivery_rowid) AS high FROM delivery_search_pending',
    );
    const { low, high } = range.get()!;
    const last = high - leaveQueued;
    // Into the index's own file (schema version 17), attached as `search`.
    const index = db.prepare<[number, number]>(
      `${indexRows('search')} WHERE d.rowid BETWEEN ? AND ?`,
    );
    const dequeue = db.prepare<[number, number]>(
      'DELETE FROM delivery_search_pending WHERE delivery_rowid BETWEEN ? AND ?',
    );
    const indexRange = db.transaction((from: number, to: number) => {
      index.run(from, to);
      dequeue.run(from, to);
    });
    for (let from = low; from <= last; from += CHUNK) {
      const to = Math.min(last, from + CHUNK - 1);
      indexRange(from, to);
      if ((to - low + 1) % 200_000 < CHUNK)
        say(`indexed ${(to - low + 1).toLocaleString('en-US')}`);
    }
    const indexedMs = performance.now() - started;

    started = performance.now();
    const merge = db.prepare(
      "INSERT INTO search.delivery_search (delivery_search, rank) VALUES ('merge', 2000)",
    );
    const changes = db.prepare<[], number>('SELECT total_changes()').pluck();
    for (;;) {
      const before = changes.get()!;
      merge.run();
      if (changes.get()! - before <= 1) break;
    }
    const mergedMs = performance.now() - started;
    db.pragma('journal_mode = WAL');
    return { ...week, seededMs, indexedMs, mergedMs };
  } finally {
    db.close();
  }
}
