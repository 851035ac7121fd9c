import { parseJsonBody } from '../ingress/steps/parse-json.js';
import { deliverySummary } from '../ingress/schemes/summaries/index.js';
import type { DeliveryRecord } from '../store/deliveries.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { ServiceDeps } from './deps.js';
import { TimeSlicer } from './time-slicer.js';

/**
 * Payloads larger than this are not parsed on read for a summary: a page of 50 such entries
 * would cost the reader more than the line is worth.
 */
const READ_SUMMARY_MAX_BYTES = 64 * 1024;
/** Payloads read at once (at most this many × READ_SUMMARY_MAX_BYTES held). */
const PAYLOADS_AT_ONCE = 50;

/**
 * Log entries with a summary (PRODUCT.md §22) where none was stored: the accept path derives one
 * only from a tree it parsed anyway, so a token webhook that nothing evaluates, and entries from
 * before summaries were kept, get theirs here from the stored payload. Such a summary is not
 * searched, but every word of it is in the payload or the event type, which are.
 */
export async function withReadSummaries(
  deps: Pick<ServiceDeps, 'deliveries'>,
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme'> | null,
  records: DeliveryRecord[],
): Promise<DeliveryRecord[]> {
  const scheme = webhook?.authMode === 'signature' ? webhook.signatureScheme : null;
  const unsummarized = (record: DeliveryRecord): boolean =>
    record.summary === null && record.label === 'Accepted' && record.size <= READ_SUMMARY_MAX_BYTES;
  // Read together, a group at a time: one by one, a page was 200 round trips to PostgreSQL.
  const bodies = new Map<string, Buffer | null>();
  const toRead = records.filter(unsummarized).map((record) => record.id);
  for (let at = 0; at < toRead.length; at += PAYLOADS_AT_ONCE) {
    const ids = toRead.slice(at, at + PAYLOADS_AT_ONCE);
    const read = await Promise.all(ids.map((id) => deps.deliveries.payload(id)));
    ids.forEach((id, n) => bodies.set(id, read[n] ?? null));
  }
  // A page of 500 such entries is up to 32 MB of JSON, parsed on the thread that answers senders.
  const slicer = new TimeSlicer();
  const out: DeliveryRecord[] = [];
  try {
    for (const record of records) {
      if (!unsummarized(record)) {
        out.push(record);
        continue;
      }
      await slicer.turn();
      const body = bodies.get(record.id) ?? null;
      const parsed = body === null ? null : parseJsonBody(body);
      const summary = parsed?.ok ? deliverySummary(scheme, record.eventType, parsed.value) : null;
      out.push(summary === null ? record : { ...record, summary });
    }
  } finally {
    slicer.done();
  }
  return out;
}
