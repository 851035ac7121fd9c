/**
 * A week (and a day) of a factory at the seed's full rate, written straight into a relay's SQLite
 * file: the ingress would take the week it describes. One webhook holds most entries (the issue's
 * 600,000), the others share the rest; realistic 1–2 KB JSON (search-payloads.ts), three in five
 * Accepted. Entries are spread evenly over `days` days ending `endAt`, so that with 7 days of
 * retention the oldest day is past it. The rows are the accept path's (batch-store.ts): the entry,
 * its request, and for an accepted one its payload and dedupe key.
 *
 * Bodies come from a pool of `POOL` generated ones, each entry's `order_<n>` written into it:
 * generating a realistic body costs about 0.1 ms, a tenth of a million entries' seed on its own.
 * Every entry's body still differs (its order), and a word of one pool body is in one in `POOL`.
 */
import type { Db } from '../../src/main/store/sqlite/db.js';
import { realisticPayload, SeededRandom } from '../search-payloads.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CHUNK = 20_000;
const POOL = 8_192;
const ORDER_MARK = 'order_999999999';
const LABELS = ['Accepted', 'Accepted', 'Accepted', 'Duplicate', 'Rejected (auth)'] as const;
const EVENT_TYPES = ['order.paid', 'order.updated', 'push', null] as const;
const HEADERS = (serial: number): string =>
  JSON.stringify([
    ['host', 'relay.example.com'],
    ['content-type', 'application/json'],
    ['user-agent', 'Shop-Hookshot/1.0'],
    ['x-service-delivery-id', `seed-${serial}`],
    ['authorization', '[redacted]'],
  ]);

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
  /** Entries per transaction (default 20,000). */
  chunk?: number;
  /** Told after each transaction, with the entries written so far. */
  progress?: (written: number) => void;
}

export interface SeededWeek {
  payloadBytes: number;
  /** Entries per webhook, in `webhookUids` order. */
  perWebhook: number[];
  /** `order_<n>` of one Accepted entry of the busy webhook, inside retention: a rare word. */
  rareOrder: number;
}

/** Bodies split around their order word, as UTF-8: an entry's body is `before + order + after`. */
function bodyPool(seed: number): Array<[before: Buffer, after: Buffer]> {
  const random = new SeededRandom(seed);
  return Array.from({ length: POOL }, () => {
    const body = realisticPayload(random, 1024 + random.int(1024), 999_999_999);
    const at = body.indexOf(ORDER_MARK);
    return [Buffer.from(body.slice(0, at + 6)), Buffer.from(body.slice(at + ORDER_MARK.length))];
  });
}

/** One log entry of the week, as the accept path writes it. */
export interface WeekRow {
  id: string;
  webhookUid: string;
  label: string;
  size: number;
  receivedAt: number;
  identity: string;
  reason: string | null;
  eventType: string | null;
  path: string;
  headers: string;
  /** Accepted entries only: the payload (and the dedupe key). */
  body: Buffer | null;
}

/** The week's entries in time order; `week` is filled in as they are taken. */
export function* weekRows(shape: WeekShape, week: SeededWeek): Generator<WeekRow> {
  const serial0 = shape.firstSerial ?? 0;
  const pool = bodyPool(20_261_127 + serial0);
  const spanMs = shape.days * 24 * 3_600_000;
  const start = shape.endAt - spanMs;
  const others = shape.webhookUids.length - 1;
  for (let i = 0; i < shape.entries; i++) {
    // Evenly in time; every entry's webhook decided by its place, so each webhook's are spread too.
    const at = start + Math.floor(((i + 0.5) * spanMs) / shape.entries);
    const main = others === 0 || (i * 7919) % 1000 < shape.mainShare * 1000;
    const w = main ? 0 : 1 + (i % others);
    const uid = shape.webhookUids[w]!;
    week.perWebhook[w]!++;
    const serial = serial0 + i;
    const label = LABELS[serial % LABELS.length]!;
    const [before, after] = pool[(serial * 7_919) % POOL]!;
    const order = Buffer.from(String(100_000 + serial));
    const size = before.length + order.length + after.length;
    const accepted = label === 'Accepted';
    if (accepted) {
      week.payloadBytes += size;
      if (main && i > shape.entries * 0.6 && week.rareOrder === 0)
        week.rareOrder = 100_000 + serial;
    }
    yield {
      id: weekId(at, serial),
      webhookUid: uid,
      label,
      size,
      receivedAt: at,
      identity: `seed-${serial}`,
      reason: label === 'Rejected (auth)' ? 'token does not match' : null,
      eventType: EVENT_TYPES[serial % 4]!,
      path: `/h/${uid}`,
      headers: HEADERS(serial),
      body: accepted ? Buffer.concat([before, order, after], size) : null,
    };
  }
}

export function seedWeek(db: Db, shape: WeekShape): SeededWeek {
  const insert = db.prepare(`
    INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source,
                            client_address, reason, duplicate_of, replay_of, event_type)
    VALUES (?, ?, ?, ?, ?, ?, 'x-service-delivery-id', '127.0.0.1', ?, NULL, NULL, ?)`);
  const request = db.prepare(
    "INSERT INTO request_contexts (delivery_id, method, path, headers) VALUES (?, 'POST', ?, ?)",
  );
  const payload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
  const dedupeKey = db.prepare(
    'INSERT OR REPLACE INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at) VALUES (?, ?, ?, ?)',
  );
  const week: SeededWeek = {
    payloadBytes: 0,
    perWebhook: shape.webhookUids.map(() => 0),
    rareOrder: 0,
  };
  const rows = weekRows(shape, week);
  const chunk = db.transaction((count: number) => {
    for (let n = 0; n < count; n++) {
      const row = rows.next().value as WeekRow;
      insert.run(
        row.id,
        row.webhookUid,
        row.label,
        row.size,
        row.receivedAt,
        row.identity,
        row.reason,
        row.eventType,
      );
      request.run(row.id, row.path, row.headers);
      if (row.body) {
        payload.run(row.id, row.body);
        dedupeKey.run(row.webhookUid, row.identity, row.id, row.receivedAt);
      }
    }
  });
  const step = shape.chunk ?? CHUNK;
  for (let from = 0; from < shape.entries; from += step) {
    const to = Math.min(shape.entries, from + step);
    chunk(to - from);
    shape.progress?.(to);
  }
  return week;
}
