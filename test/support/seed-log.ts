import type { Db } from '../../src/main/store/sqlite/db.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A valid, time-sortable delivery ID (the ulid package is too slow for 100,000 of them). */
function seedId(ms: number, n: number): string {
  let time = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32]! + time;
  let tail = '';
  for (let i = 0, r = n; i < 16; i++, r = Math.floor(r / 32)) tail = CROCKFORD[r % 32]! + tail;
  return `dlv_${time}${tail}`;
}

/** Entries seeded by this process: two logs seeded in the same millisecond get distinct IDs. */
let seeded = 0;

const LABELS = ['Accepted', 'Accepted', 'Accepted', 'Duplicate', 'Rejected (auth)'] as const;
/** Most entries name their event, as a GitHub webhook's do; some do not. */
const EVENT_TYPES = ['pull_request.opened', 'issues.opened', 'push', null] as const;

export interface SeedOptions {
  /** The body of the i-th entry (oldest first), stored when it is Accepted. */
  bodyOf?: (i: number) => string;
  /** When the i-th entry arrived; by default one a second, the last a second ago. */
  atOf?: (i: number) => number;
  /** The i-th entry's label; by default Accepted ×3, Duplicate, Rejected (auth), over and over. */
  labelOf?: (i: number) => (typeof LABELS)[number];
  /** The i-th entry's event type; by default a GitHub-like mix, some entries without one. */
  eventTypeOf?: (i: number) => string | null;
}

/**
 * A log of `count` entries, one a second up to now, written straight into the relay's store: the
 * ingress would take days at 60 deliveries a minute. The UI reads them through the API as usual.
 * Returns the IDs, oldest first.
 */
export function seedLog(db: Db, uid: string, count: number, options: SeedOptions = {}): string[] {
  const start = Date.now() - count * 1000;
  const atOf = options.atOf ?? ((i: number) => start + i * 1000);
  const bodyOf = options.bodyOf ?? ((i: number) => `{"n":${i}}`);
  const eventTypeOf = options.eventTypeOf ?? ((i: number) => EVENT_TYPES[i % EVENT_TYPES.length]!);
  const insert = db.prepare(`
    INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source,
                            client_address, reason, duplicate_of, replay_of, event_type)
    VALUES (?, ?, ?, ?, ?, ?, 'x-service-delivery-id', '127.0.0.1', ?, NULL, NULL, ?)`);
  const payload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const at = atOf(i);
      const id = seedId(at, seeded++);
      const label = options.labelOf?.(i) ?? LABELS[i % LABELS.length]!;
      const body = bodyOf(i);
      const reason = label === 'Rejected (auth)' ? 'token does not match' : null;
      insert.run(id, uid, label, Buffer.byteLength(body), at, `seed-${i}`, reason, eventTypeOf(i));
      if (label === 'Accepted') payload.run(id, Buffer.from(body));
      ids.push(id);
    }
  })();
  return ids;
}
