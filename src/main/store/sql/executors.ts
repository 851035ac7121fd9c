import { executorSchema } from '../../../shared/contract/executors.js';
import type { ExecutorsRepository } from '../executors.js';
import { one, row, run, type Calls } from './query.js';

/** `factories.executor`, the JSON executor config of each factory (PRODUCT.md §7), for both stores. */
export const executorsCalls: Calls<ExecutorsRepository> = {
  get: (factoryId) =>
    row('SELECT executor FROM factories WHERE id = $1', [factoryId], (r?: { executor: string }) => {
      if (!r) return null;
      const parsed = executorSchema.safeParse(JSON.parse(r.executor));
      if (!parsed.success) {
        throw new Error(`The executor of factory "${factoryId}" is not valid; set it again.`);
      }
      return parsed.data;
    }),
  set: (factoryId, config) =>
    run(
      'UPDATE factories SET executor = $1 WHERE id = $2',
      [JSON.stringify(config), factoryId],
      one,
    ),
};
