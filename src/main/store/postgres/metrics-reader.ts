import type { MetricsReader } from '../metrics-queries.js';
import type { Queryable } from './client.js';

/** What /metrics reads from PostgreSQL when it is scraped (not on any delivery's path). */
export function createPostgresMetricsReader(q: Queryable): MetricsReader {
  return {
    /** A run's executor is its factory's (through the webhook: automations may be deleted). */
    async runsByStatusAndExecutor() {
      const { rows } = await q.query<{ status: string; executor: string; n: number }>(
        `SELECT r.status AS status, coalesce(f.executor::jsonb ->> 'kind', 'unknown') AS executor,
                count(*) AS n
         FROM runs r LEFT JOIN webhooks w ON w.uid = r.webhook_uid
         LEFT JOIN factories f ON f.id = w.factory_id
         GROUP BY 1, 2 ORDER BY 1, 2`,
      );
      return rows;
    },
    async queue() {
      const { rows } = await q.query<{ depth: number; oldest: number | null }>(
        "SELECT count(*) AS depth, min(created_at) AS oldest FROM runs WHERE status = 'queued'",
      );
      return rows[0]!;
    },
    async liveWebhooks() {
      const { rows } = await q.query<{ uid: string; name: string }>(
        'SELECT uid, name FROM webhooks WHERE deleted_at IS NULL ORDER BY uid',
      );
      return rows;
    },
    /** Log entries queued for the search indexers of every replica (migration 10). */
    async searchPending() {
      const { rows } = await q.query<{ n: number }>(
        `SELECT count(*) AS n FROM (
           SELECT id FROM deliveries WHERE NOT indexed
           UNION SELECT delivery_id FROM payloads WHERE NOT indexed) queued`,
      );
      return rows[0]!.n;
    },
  };
}
