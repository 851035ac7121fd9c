import type { ReceivedRequest } from '../../store/delivery-batch.js';

/**
 * The most header bytes (names and values, as received) a log entry written before the sender
 * authenticated keeps: a GitHub or Stripe delivery's headers are 1–2 KB, and 4 KB per entry
 * within the unauthenticated budgets bounds what an anonymous sender can make the relay store.
 */
export const UNAUTHENTICATED_HEADER_BYTES = 4_096;

/**
 * `request` with its headers kept in order while they fit in `bound` bytes: the header that
 * crosses the bound is cut (its value ending in `…`), those after it are not kept. Also says how
 * many bytes were left out (0 when all fit).
 */
export function boundedHeaders(
  request: ReceivedRequest,
  bound: number = UNAUTHENTICATED_HEADER_BYTES,
): { request: ReceivedRequest; leftOut: number } {
  const kept: string[] = [];
  let used = 0;
  let leftOut = 0;
  const { headers } = request;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    const bytes = name.length + value.length;
    if (leftOut === 0 && used + bytes <= bound) {
      kept.push(name, value);
      used += bytes;
      continue;
    }
    // What is left of the bound, less one for the ellipsis; nothing once a header was cut.
    const room = leftOut === 0 ? bound - used - name.length - 1 : 0;
    if (room > 0) {
      kept.push(name, `${value.slice(0, room)}…`);
      leftOut += value.length - room;
    } else {
      leftOut += bytes;
    }
  }
  return { request: leftOut === 0 ? request : { ...request, headers: kept }, leftOut };
}
