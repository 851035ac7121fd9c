import { performance } from 'node:perf_hooks';
import { afterEachCommit, type DeliveryBatchStore } from '../delivery-batch.js';
import type { IndexPacing, IndexRun, SearchIndexer } from '../search-indexer.js';
import { JOB_LOCK_NAMESPACE, jobLockKey } from './advisory-lock.js';
import { withTransaction } from './client.js';
import type { PgPool } from './pool.js';
import { RowsPerBudget } from './rows-per-budget.js';

/**
 * Each PostgreSQL slice is a transaction of round trips: fewer, longer ones. A quiet relay's
 * slices still compete with the other relays' accepts on the database: less than half of it.
 */
export const POSTGRES_PACING: IndexPacing = {
  busy: { ms: 2, share: 0.04 },
  behind: { ms: 5, share: 0.1 },
  idle: { ms: 20, share: 0.4 },
};

/** A table whose rows wait for the search index (migration 10), by the key its queue is ordered by. */
interface SearchQueue {
  table: 'deliveries' | 'payloads';
  key: 'id' | 'delivery_id';
}

const QUEUES: readonly SearchQueue[] = [
  { table: 'deliveries', key: 'id' },
  { table: 'payloads', key: 'delivery_id' },
];

/**
 * Marks the oldest queued rows indexed, which adds them to the partial GIN index. SKIP LOCKED:
 * each relay on the database indexes, never a row another relay is indexing. ARRAY(…) runs the
 * queue's scan once, before the update. An entry is numbered in the order it joins the index
 * (migration 18), under SEARCH_ORDER_LOCK.
 */
const indexOldest = ({ table, key }: SearchQueue): string => `
  UPDATE ${table} SET indexed = true${
    table === 'deliveries' ? ", search_order = nextval('delivery_search_order')" : ''
  }
  WHERE ${key} = ANY(ARRAY(
    SELECT ${key} FROM ${table} WHERE NOT indexed
    ORDER BY ${key} LIMIT $1 FOR UPDATE SKIP LOCKED))`;

/**
 * Held from an indexer's first numbering to its commit: numbers commit in their order, so a
 * snapshot that sees one sees every lower one (search-totals.ts counts on from the highest seen).
 * The relays' indexers take turns numbering; each holds it for one slice (a few ms).
 */
const SEARCH_ORDER_LOCK = [JOB_LOCK_NAMESPACE, jobLockKey('search-order')];

/** A first guess at one row's indexing time, refined by every statement. */
const FIRST_MS_PER_ROW = 0.25;
const MAX_ROWS = 500;

export type PostgresSearchIndex = ReturnType<typeof createPostgresSearchIndex>;

/**
 * Indexes queued log entries and payloads for the log search. Each call is a transaction per
 * queue of statements sized to the rows the budget is expected to allow (at least one), so a
 * burst of 64 KB payloads never takes the database, or a pool connection, for long. How many
 * wait: the metrics reader's `searchPending`.
 */
export function createPostgresSearchIndex(pool: PgPool) {
  const paces = new Map(
    QUEUES.map((queue) => [queue, new RowsPerBudget(FIRST_MS_PER_ROW, 1, MAX_ROWS)]),
  );
  // Each slice starts with the other queue, so a long one never starves the other.
  let turn = 0;

  /**
   * One queue's statements for what is left of the slice's budget, in a transaction of their own:
   * the deliveries' takes SEARCH_ORDER_LOCK, the payloads' does not. In one transaction, a slice
   * that numbered deliveries first held the lock, which the other relays' slices wait for, through
   * its payloads' statements (one of 362–735 ms every second or two in a catch-up at two million).
   * Without waiting for its WAL flush: a crash loses at most the last slices' flags, so those
   * rows stay queued and are indexed again. The deliveries themselves were durable at their 202,
   * whatever happens here.
   */
  const indexQueue = (queue: SearchQueue, started: number, budgetMs: number): Promise<IndexRun> =>
    withTransaction(pool, async (client) => {
      await client.query('SET LOCAL synchronous_commit = off');
      if (queue.table === 'deliveries') {
        await client.query('SELECT pg_advisory_xact_lock($1, $2)', SEARCH_ORDER_LOCK);
      }
      const pace = paces.get(queue)!;
      let indexed = 0;
      for (;;) {
        const rows = pace.rows(budgetMs - (performance.now() - started));
        const at = performance.now();
        const updated = (await client.query(indexOldest(queue), [rows])).rowCount ?? 0;
        pace.took(performance.now() - at, updated);
        indexed += updated;
        // Fewer than asked: this queue is empty, or the rest is another relay's to index. (Said
        // before the budget: a slow answer on an empty queue is not "more to do".)
        if (updated < rows) return { indexed, more: false };
        if (performance.now() - started >= budgetMs) return { indexed, more: true };
      }
    });

  const indexSome = async (budgetMs: number): Promise<IndexRun> => {
    const started = performance.now();
    let indexed = 0;
    const first = turn++ % QUEUES.length;
    for (const queue of [...QUEUES.slice(first), ...QUEUES.slice(0, first)]) {
      const run = await indexQueue(queue, started, budgetMs);
      indexed += run.indexed;
      if (run.more) return { indexed, more: true };
    }
    return { indexed, more: false };
  };

  /** Indexes queued rows for about `budgetMs`; `more` when some may still be queued. */
  return { indexSome };
}

/** The accept path as it was, telling the indexer after each commit that deliveries arrive. */
export function markingBusy(store: DeliveryBatchStore, indexer: SearchIndexer): DeliveryBatchStore {
  return afterEachCommit(store, () => indexer.markBusy());
}
