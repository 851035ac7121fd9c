/**
 * A week (and a day) of a factory at the seed's full rate, written straight into a relay's SQLite
 * file: the ingress would take the week it describes. One webhook holds most entries (the issue's
 * 600,000), the others share the rest; realistic 1–2 KB JSON (search-payloads.ts), three in five
 * Accepted. Entries are spread evenly over `days` days ending `endAt`, so that with 7 days of
 * retention the oldest day is past it. Committed in chunks, as a week of batches would be.
 */
import type { Db } from '../../src/main/store/sqlite/db.js';
import { realisticPayload, SeededRandom } from '../search-payloads.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CHUNK = 20_000;
const LABELS = ['Accepted', 'Accepted', 'Accepted', 'Duplicate', 'Rejected (auth)'] as const;
const EVENT_TYPES = ['order.paid', 'order.updated', 'push', null] as const;

/** A valid, time-sortable delivery ID; `n` makes it unique among entries of the same millisecond. */
export function weekId(ms: number, n: number): string {
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32]! + time;
  let tail = '';
  for (let i = 0, r = n; i < 16; i++, r = Math.floor(r / 32)) tail = CROCKFORD[r % 32]! + tail;
  return `dlv_${time}${tail}`;
}

export interface WeekShape {
  /** Entries in all; the first webhook holds `mainShare` of them. */
  entries: number;
  mainShare: number;
  /** The factory's webhooks, the first being the busy one. */
  webhookUids: readonly string[];
  days: number;
  endAt: number;
  /** Numbers the entries (and their `order_<n>` word) after an earlier seed of the same file. */
  firstSerial?: number;
}

export interface SeededWeek {
  payloadBytes: number;
  /** Entries per webhook, in `webhookUids` order. */
  perWebhook: number[];
  /** `order_<n>` of one Accepted entry of the busy webhook, inside retention: a rare word. */
  rareOrder: number;
}

export function seedWeek(db: Db, shape: WeekShape): SeededWeek {
  const insert = db.prepare(`
    INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source,
                            client_address, reason, duplicate_of, replay_of, event_type)
    VALUES (?, ?, ?, ?, ?, ?, 'x-service-delivery-id', '127.0.0.1', ?, NULL, NULL, ?)`);
  const payload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
  const random = new SeededRandom(20_261_127);
  const spanMs = shape.days * 24 * 3_600_000;
  const start = shape.endAt - spanMs;
  const serial0 = shape.firstSerial ?? 0;
  const perWebhook = shape.webhookUids.map(() => 0);
  const others = shape.webhookUids.length - 1;
  let payloadBytes = 0;
  let rareOrder = 0;
  const chunk = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      // Evenly in time; every entry's webhook decided by its place, so each webhook's are spread too.
      const at = start + Math.floor(((i + 0.5) * spanMs) / shape.entries);
      const main = others === 0 || (i * 7919) % 1000 < shape.mainShare * 1000;
      const w = main ? 0 : 1 + (i % others);
      const uid = shape.webhookUids[w]!;
      perWebhook[w]!++;
      const serial = serial0 + i;
      const label = LABELS[serial % LABELS.length]!;
      const body = realisticPayload(random, 1024 + random.int(1024), 100_000 + serial);
      const reason = label === 'Rejected (auth)' ? 'token does not match' : null;
      const id = weekId(at, serial);
      insert.run(
        id,
        uid,
        label,
        body.length,
        at,
        `seed-${serial}`,
        reason,
        EVENT_TYPES[serial % 4],
      );
      if (label === 'Accepted') {
        payload.run(id, Buffer.from(body));
        payloadBytes += body.length;
        if (main && i > shape.entries * 0.6 && rareOrder === 0) rareOrder = 100_000 + serial;
      }
    }
  });
  for (let from = 0; from < shape.entries; from += CHUNK) {
    chunk(from, Math.min(shape.entries, from + CHUNK));
  }
  return { payloadBytes, perWebhook, rareOrder };
}
