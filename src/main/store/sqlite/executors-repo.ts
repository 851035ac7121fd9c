import type { ExecutorsRepository } from '../executors.js';
import type { Sync } from '../store.js';
import { executorSchema, type ExecutorConfig } from '../../../shared/contract/executors.js';
import type { Db } from './db.js';

/** `factories.executor`: the JSON executor config of each factory (PRODUCT.md §7). */
export function createExecutorsRepository(db: Db): Sync<ExecutorsRepository> {
  const read = db.prepare<[string], { executor: string }>(
    'SELECT executor FROM factories WHERE id = ?',
  );
  const write = db.prepare('UPDATE factories SET executor = ? WHERE id = ?');

  return {
    /**
     * null when the factory does not exist. A stored value that no longer parses (written by a
     * newer Hookport, or by hand) throws rather than silently falling back to `record`, which
     * would mark runs succeeded without running them.
     */
    get: (factoryId: string): ExecutorConfig | null => {
      const row = read.get(factoryId);
      if (!row) return null;
      const parsed = executorSchema.safeParse(JSON.parse(row.executor));
      if (!parsed.success) {
        throw new Error(`The executor of factory "${factoryId}" is not valid; set it again.`);
      }
      return parsed.data;
    },
    set: (factoryId: string, config: ExecutorConfig): boolean =>
      write.run(JSON.stringify(config), factoryId).changes === 1,
  };
}
