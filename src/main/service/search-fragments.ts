import type { DeliveryRecord } from '../store/deliveries.js';
import type { ServiceDeps } from './deps.js';

/** Characters of context kept on each side of the searched text. */
const CONTEXT_CHARS = 36;
/** Larger payloads are not read again for a fragment: the summary or metadata must do. */
const FRAGMENT_MAX_BYTES = 256 * 1024;
/** Payloads read at once for a page's fragments (at most this many × FRAGMENT_MAX_BYTES held). */
const PAYLOADS_AT_ONCE = 50;

/** `…"title": "Fix retries", "st…`: the searched text with a little on each side, on one line. */
export function fragmentAround(text: string, needle: string): string | null {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return null;
  const start = Math.max(0, at - CONTEXT_CHARS);
  const end = Math.min(text.length, at + needle.length + CONTEXT_CHARS);
  const line = text.slice(start, end).replace(/\s+/g, ' ');
  return `${start > 0 ? '…' : ''}${line}${end < text.length ? '…' : ''}`;
}

const holds = (text: string | null, needle: string): boolean =>
  text !== null && text.toLowerCase().includes(needle.toLowerCase());

/**
 * Why each entry of a searched page matched (PRODUCT.md §22): nothing when the row already shows
 * it (the summary, the ID, the event type), else the identity or the payload text around the
 * match. A row then says why it is in the result without being opened.
 */
export async function searchMatches(
  deps: Pick<ServiceDeps, 'deliveries'>,
  q: string,
  records: DeliveryRecord[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const payloadsToRead: string[] = [];
  for (const record of records) {
    if ([record.summary, record.id, record.eventType].some((text) => holds(text, q))) continue;
    if (record.identity !== null && holds(record.identity, q)) {
      found.set(record.id, `identity ${record.identity}`);
      continue;
    }
    if (record.label !== 'Accepted' || record.size > FRAGMENT_MAX_BYTES) continue;
    payloadsToRead.push(record.id);
  }
  // Read together, a group at a time: one by one, a page was 200 round trips to PostgreSQL.
  for (let at = 0; at < payloadsToRead.length; at += PAYLOADS_AT_ONCE) {
    const ids = payloadsToRead.slice(at, at + PAYLOADS_AT_ONCE);
    const bodies = await Promise.all(ids.map((id) => deps.deliveries.payload(id)));
    ids.forEach((id, n) => {
      const body = bodies[n];
      const fragment =
        body === null || body === undefined ? null : fragmentAround(body.toString('utf8'), q);
      if (fragment !== null) found.set(id, fragment);
    });
  }
  return found;
}
