import type { ExecutorConfig } from '../../shared/contract/executors.js';

/** `factories.executor`: the JSON executor config of each factory (PRODUCT.md §7). */
export interface ExecutorsRepository {
  /**
   * null when the factory does not exist. A stored value that no longer parses (written by a
   * newer Hookport, or by hand) throws rather than silently falling back to `record`, which
   * would mark runs succeeded without running them.
   */
  get(factoryId: string): Promise<ExecutorConfig | null>;
  /** False when the factory does not exist. */
  set(factoryId: string, config: ExecutorConfig): Promise<boolean>;
}
