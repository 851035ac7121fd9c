import { setImmediate as turn } from 'node:timers/promises';
import type { Db } from '../../src/main/store/sqlite/db.js';
import { createSearchIndex } from '../../src/main/store/sqlite/search-index.js';

/**
 * Indexes every queued entry on the test's connection, in short slices with a turn of the event
 * loop between them: a relay in this process keeps serving meanwhile (as beside the real indexer,
 * which runs on the writer thread). One long synchronous pass held its admin listener past its
 * 5 s keep-alive, so the test's next request met a connection closed as idle (ECONNRESET).
 */
export async function indexAll(db: Db): Promise<void> {
  const index = createSearchIndex(db);
  try {
    while (index.pending() > 0) {
      index.indexSome(50);
      await turn();
    }
  } finally {
    index.close();
  }
}
