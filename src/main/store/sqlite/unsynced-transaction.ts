import type { Db } from './db.js';
import { tracedTransaction } from './writer-trace.js';

/**
 * `fn` in a transaction of its own without an fsync at commit (synchronous = NORMAL in WAL): a
 * prune's slice lost to a crash is done again by the next prune, and the next accept commit's
 * fsync makes it durable with its own. An fsync per slice cost 10-60 ms on a loaded disk.
 */
export function unsyncedTransaction<A extends unknown[], R>(
  db: Db,
  fn: (...args: A) => R,
  kind = 'slice',
): (...args: A) => R {
  const transaction = tracedTransaction(db, kind, fn);
  return (...args: A): R => {
    db.pragma('synchronous = NORMAL');
    try {
      return transaction(...args);
    } finally {
      db.pragma('synchronous = FULL');
    }
  };
}
