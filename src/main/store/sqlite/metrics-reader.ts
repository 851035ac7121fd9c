import type { MetricsReader } from '../metrics-queries.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

/** What /metrics reads from the database when it is scraped (not on any delivery's path). */
export function createMetricsReader(db: Db): Sync<MetricsReader> {
  // A run's executor is its factory's (through the webhook: automations may be deleted).
  const runs = db.prepare<[], { status: string; executor: string; n: number }>(`
    SELECT r.status AS status, coalesce(json_extract(f.executor, '$.kind'), 'unknown') AS executor,
           count(*) AS n
    FROM runs r LEFT JOIN webhooks w ON w.uid = r.webhook_uid LEFT JOIN factories f ON f.id = w.factory_id
    GROUP BY 1, 2`);
  const queue = db.prepare<[], { depth: number; oldest: number | null }>(
    "SELECT count(*) AS depth, min(created_at) AS oldest FROM runs WHERE status = 'queued'",
  );
  const webhooks = db.prepare<[], { uid: string; name: string }>(
    'SELECT uid, name FROM webhooks WHERE deleted_at IS NULL',
  );
  // Queued to be indexed or forgotten, and a migrated file's rowids not yet rebuilt (017: a
  // difference of marks, never a count of the entries, which is seconds at a million).
  const searchPending = db.prepare<[], { n: number }>(
    `SELECT (SELECT count(*) FROM delivery_search_pending)
       + (SELECT count(*) FROM delivery_search_forget)
       + max(0, (SELECT upto FROM delivery_search_legacy)
           - (SELECT upto FROM search.delivery_search_rebuilt)) AS n`,
  );
  return {
    runsByStatusAndExecutor: () => runs.all(),
    queue: () => queue.get()!,
    liveWebhooks: () => webhooks.all(),
    searchPending: () => searchPending.get()!.n,
  };
}
