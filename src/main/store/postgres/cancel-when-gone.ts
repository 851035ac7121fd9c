import { AskerGoneError } from '../asker-gone.js';
import type { Queryable } from './client.js';

/**
 * `read` on `on` (a connection checked out of `pool`), its statement cancelled once `gone`
 * aborts: a common text's first count runs for seconds at a week's scale, on a pooled connection
 * and the database's CPU, after the page that asked for it has moved on. The cancel goes through
 * another pooled connection, and `on` is held until it has answered, so it can never land on
 * someone else's statement (a cancel that finds its backend idle is ignored). Rejects with
 * AskerGoneError once cancelled.
 */
export async function cancelledWhenGone<T>(
  pool: Queryable,
  on: Queryable,
  gone: AbortSignal,
  read: (on: Queryable) => Promise<T>,
): Promise<T> {
  const { rows } = await on.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  if (gone.aborted) throw new AskerGoneError();
  let cancelling: Promise<unknown> | undefined;
  const cancel = (): void => {
    cancelling = pool.query('SELECT pg_cancel_backend($1)', [rows[0]!.pid]).catch(() => undefined);
  };
  gone.addEventListener('abort', cancel, { once: true });
  try {
    return await read(on);
  } catch (error) {
    throw gone.aborted ? new AskerGoneError() : error;
  } finally {
    gone.removeEventListener('abort', cancel);
    await cancelling;
  }
}
