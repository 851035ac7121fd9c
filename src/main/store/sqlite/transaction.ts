import type { Db } from './db.js';
import type { Async, StoreRepositories } from '../store.js';

/**
 * `Store.transaction` on SQLite's one main connection: BEGIN IMMEDIATE … COMMIT, or ROLLBACK when
 * the callback throws.
 *
 * The callback must await only calls on `tx`: SQLite repositories run each call at once, in the
 * caller's tick, so the whole transaction runs within one drain of the microtask queue and no
 * I/O callback (a request, a timer) can run in between. Two guards keep other work out anyway:
 * - calls on the store's own (non-`tx`) repositories made while a transaction is open wait for
 *   it to end (they would otherwise join it, and be rolled back with it);
 * - a callback still running once a macrotask has had its turn has awaited something else (a
 *   keychain, the network): its next `tx` call throws and the transaction is rolled back.
 */
export class SqliteTransactions {
  /** Settles when the open transaction ends; null when none is open. */
  private open: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly repositories: StoreRepositories,
  ) {}

  /** The store's own repositories: each call waits while a transaction is open. */
  outside(): StoreRepositories {
    const gated: Record<string, unknown> = {};
    for (const [name, repo] of Object.entries(this.repositories)) {
      gated[name] = this.gate(repo as Record<string, (...args: unknown[]) => Promise<unknown>>);
    }
    return gated as unknown as StoreRepositories;
  }

  async run<T>(fn: (tx: StoreRepositories) => Promise<T>): Promise<T> {
    while (this.open) await this.open;
    let end!: () => void;
    this.open = new Promise((resolve) => (end = resolve));
    let escaped = false;
    const watch = setImmediate(() => (escaped = true));
    const tx = this.bound(() => {
      if (escaped) {
        throw new Error(
          'a SQLite transaction awaited something other than its own repositories; rolled back',
        );
      }
    });
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn(tx);
      if (escaped) throw new Error('a SQLite transaction outlived its tick; rolled back');
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      clearImmediate(watch);
      this.open = null;
      end();
    }
  }

  /** The repositories for one transaction's callback; `check` runs before every call. */
  private bound(check: () => void): StoreRepositories {
    const out: Record<string, unknown> = {};
    for (const [name, repo] of Object.entries(this.repositories)) {
      const methods: Record<string, unknown> = {};
      for (const [method, call] of Object.entries(
        repo as Record<string, (...args: unknown[]) => Promise<unknown>>,
      )) {
        methods[method] = (...args: unknown[]): Promise<unknown> => {
          try {
            check();
          } catch (error) {
            return Promise.reject(error instanceof Error ? error : new Error(String(error)));
          }
          return call(...args);
        };
      }
      out[name] = methods;
    }
    return out as unknown as StoreRepositories;
  }

  private gate<T extends Record<string, (...args: unknown[]) => Promise<unknown>>>(
    repo: T,
  ): Async<T> {
    const out: Record<string, unknown> = {};
    for (const [method, call] of Object.entries(repo)) {
      const waitThenCall = (args: unknown[]): Promise<unknown> =>
        this.open ? this.open.then(() => waitThenCall(args)) : call(...args);
      out[method] = (...args: unknown[]): Promise<unknown> => waitThenCall(args);
    }
    return out as Async<T>;
  }
}
