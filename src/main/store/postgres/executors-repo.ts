import { executorSchema } from '../../../shared/contract/executors.js';
import type { ExecutorsRepository } from '../executors.js';
import type { Queryable } from './client.js';

/** executors-repo.ts on PostgreSQL: `factories.executor`, the JSON executor config (§7). */
export function createPostgresExecutorsRepository(q: Queryable): ExecutorsRepository {
  return {
    // A stored value that no longer parses throws, as on SQLite: never a silent `record`.
    get: async (factoryId) => {
      const { rows } = await q.query<{ executor: string }>(
        'SELECT executor FROM factories WHERE id = $1',
        [factoryId],
      );
      if (!rows[0]) return null;
      const parsed = executorSchema.safeParse(JSON.parse(rows[0].executor));
      if (!parsed.success) {
        throw new Error(`The executor of factory "${factoryId}" is not valid; set it again.`);
      }
      return parsed.data;
    },
    set: async (factoryId, config) => {
      const { rowCount } = await q.query('UPDATE factories SET executor = $1 WHERE id = $2', [
        JSON.stringify(config),
        factoryId,
      ]);
      return rowCount === 1;
    },
  };
}
