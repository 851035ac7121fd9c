import type { Queryable } from './client.js';

/**
 * Payloads asked for in the same turn of the event loop, read in one statement: a searched
 * page's fragments (service/search-fragments.ts) ask for up to 50 at once, which were as many
 * round trips to the database.
 */
export function coalescedPayloads(q: Queryable) {
  let waiting = new Map<string, Array<(body: Buffer | null) => void>>();
  let failWaiting = new Map<string, Array<(error: unknown) => void>>();

  const flush = async (): Promise<void> => {
    const asked = waiting;
    const fail = failWaiting;
    waiting = new Map();
    failWaiting = new Map();
    try {
      const { rows } = await q.query<{ delivery_id: string; body: Buffer }>(
        'SELECT delivery_id, body FROM payloads WHERE delivery_id = ANY($1::text[])',
        [[...asked.keys()]],
      );
      const bodies = new Map(rows.map((r) => [r.delivery_id, r.body]));
      for (const [id, answers] of asked)
        for (const answer of answers) answer(bodies.get(id) ?? null);
    } catch (error) {
      for (const rejects of fail.values()) for (const reject of rejects) reject(error);
    }
  };

  return (id: string): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      if (waiting.size === 0) queueMicrotask(() => void flush());
      waiting.set(id, [...(waiting.get(id) ?? []), resolve]);
      failWaiting.set(id, [...(failWaiting.get(id) ?? []), reject]);
    });
}
