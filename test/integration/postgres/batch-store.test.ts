import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newDeliveryId, newRunId } from '../../../src/main/ids.js';
import type {
  AcceptItem,
  AcceptOutcome,
  BatchItem,
  RejectionItem,
} from '../../../src/main/store/delivery-batch.js';
import { openDatabase } from '../../../src/main/store/sqlite/db.js';
import { DeliveryWriter } from '../../../src/main/store/delivery-writer.js';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { createSqliteBatchStore } from '../../../src/main/store/sqlite/batch-store.js';
import { usePostgres } from '../../support/postgres.js';
import { tempDir } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();
const WINDOW_MS = 7 * 24 * 60 * 60_000;
const WEBHOOK = 'wh_batchstoretest00000000000';

function acceptItem(identity: string, overrides: Partial<AcceptItem> = {}): AcceptItem {
  const receivedAt = overrides.receivedAt ?? Date.now();
  return {
    id: newDeliveryId(receivedAt),
    webhookUid: WEBHOOK,
    receivedAt,
    body: Buffer.from(JSON.stringify({ identity })),
    identity,
    identitySource: 'x-service-delivery-id',
    clientAddress: '127.0.0.1',
    runs: [{ id: newRunId(receivedAt), automationId: 'aut_1', input: `run for ${identity}` }],
    request: {
      method: 'POST',
      path: `/webhooks/w/${WEBHOOK}`,
      headers: [
        'Content-Type',
        'application/json',
        'X-Service-Delivery-Id',
        identity,
        'X-Note',
        'ünïcode, "quotes" and \\ backslashes',
      ],
    },
    eventType: 'issues.opened',
    ...overrides,
  };
}

function rejection(reason: string): RejectionItem {
  const receivedAt = Date.now();
  return {
    id: newDeliveryId(receivedAt),
    webhookUid: WEBHOOK,
    receivedAt,
    size: 2,
    label: 'Rejected (auth)',
    reason,
    clientAddress: '127.0.0.1',
    identity: null,
    identitySource: null,
    request: {
      method: 'POST',
      path: `/webhooks/w/${WEBHOOK}`,
      headers: ['Authorization', '[redacted]'],
    },
    eventType: null,
  };
}

const accept = (item: AcceptItem): BatchItem => ({ kind: 'accept', item });

async function rows<T extends Record<string, unknown>>(
  pool: PgPool,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

describe('PostgresBatchStore', () => {
  it('accepts one identity exactly once when two replicas commit it at the same moment, 50 times', async () => {
    const { pool, openPool } = await postgres.database();
    const replicaA = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const replicaB = createPostgresBatchStore(openPool(), { dedupeWindowMs: WINDOW_MS });

    for (let round = 0; round < 50; round++) {
      const [x, y] = [`x-${round}`, `y-${round}`];
      const [a, b] = await Promise.all([
        // Opposite orders: batches sharing keys queue behind each other, never deadlock.
        replicaA.commit([accept(acceptItem(x)), accept(acceptItem(y))]),
        replicaB.commit([accept(acceptItem(y)), accept(acceptItem(x))]),
      ]);
      const outcomes = [...a.outcomes, ...b.outcomes];
      for (const identity of [x, y]) {
        const mine = [a.committed, b.committed].flat().filter((d) => d.identity === identity);
        const accepted = mine.filter((d) => d.label === 'Accepted');
        expect(accepted, `round ${round}, ${identity}`).toHaveLength(1);
        const duplicate = mine.find((d) => d.label === 'Duplicate')!;
        expect(duplicate.duplicateOf).toBe(accepted[0]!.id);
      }
      expect(outcomes.filter((o) => o.label === 'Accepted')).toHaveLength(2);
    }

    const perIdentity = await rows<{ identity: string; accepted: number; payloads: number }>(
      pool,
      `SELECT d.identity, count(*) FILTER (WHERE d.label = 'Accepted') AS accepted,
              count(p.delivery_id) AS payloads
       FROM deliveries d LEFT JOIN payloads p ON p.delivery_id = d.id GROUP BY d.identity`,
    );
    expect(perIdentity).toHaveLength(100);
    for (const row of perIdentity) expect(row).toMatchObject({ accepted: 1, payloads: 1 });
    const keys = await rows<{ n: number }>(
      pool,
      `SELECT count(*) AS n FROM dedupe_keys k JOIN deliveries d ON d.id = k.delivery_id
       WHERE d.label = 'Accepted'`,
    );
    expect(keys[0]!.n).toBe(100);
    const runs = await rows<{ n: number }>(
      pool,
      `SELECT count(*) AS n FROM runs r JOIN deliveries d ON d.id = r.delivery_id
       WHERE d.label = 'Accepted' AND r.status = 'queued'`,
    );
    expect(runs[0]!.n).toBe(100);
    expect((await rows<{ n: number }>(pool, 'SELECT count(*) AS n FROM runs'))[0]!.n).toBe(100);
  });

  it('decides and records a batch exactly as the SQLite store does', async () => {
    const { pool } = await postgres.database();
    const sqlite = openDatabase(join(tempDir(), 'same-batch.sqlite'));
    const first = acceptItem('same');
    const again = acceptItem('same');
    const refused = rejection('the bearer token does not match');
    // A replay of an entry from before requests were kept: no request context to copy.
    const replay = acceptItem('same', { replayOf: first.id, request: null });
    const batch: BatchItem[] = [
      accept(first),
      accept(again),
      { kind: 'reject', item: refused },
      accept(replay),
    ];
    try {
      const expected = await createSqliteBatchStore(sqlite, { dedupeWindowMs: WINDOW_MS }).commit(
        batch,
      );
      const result = await createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS }).commit(
        batch,
      );

      expect(result).toEqual(expected);
      expect(result.outcomes.map((o) => o.label)).toEqual(['Accepted', 'Duplicate', 'Accepted']);
      expect(result.committed.map((d) => d.label)).toEqual([
        'Accepted',
        'Duplicate',
        'Rejected (auth)',
        'Accepted',
      ]);
      const tables = [
        'SELECT id, webhook_uid, label, size, received_at, identity, identity_source, client_address, reason, duplicate_of, replay_of, event_type FROM deliveries ORDER BY id',
        'SELECT delivery_id, method, path, headers FROM request_contexts ORDER BY delivery_id',
        'SELECT webhook_uid, identity, delivery_id, accepted_at FROM dedupe_keys',
        'SELECT id, automation_id, delivery_id, webhook_uid, status, input, created_at FROM runs ORDER BY id',
      ];
      for (const sql of tables) {
        expect(await rows(pool, sql), sql).toEqual(sqlite.prepare(sql).all());
      }
      const payloads = 'SELECT delivery_id, body FROM payloads ORDER BY delivery_id';
      expect(await rows(pool, payloads)).toEqual(sqlite.prepare(payloads).all());
    } finally {
      sqlite.close();
    }
  });

  it('honours the 7-day window: an older key is taken over, a younger one is a duplicate', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const now = Date.now();
    const old = acceptItem('old', { receivedAt: now - WINDOW_MS - 1 });
    const recent = acceptItem('recent', { receivedAt: now - WINDOW_MS + 60_000 });
    await store.commit([accept(old), accept(recent)]);

    const result = await store.commit([
      accept(acceptItem('old', { receivedAt: now })),
      accept(acceptItem('recent', { receivedAt: now })),
    ]);

    expect(result.outcomes.map((o) => o.label)).toEqual(['Accepted', 'Duplicate']);
    const keys = await rows<{ identity: string; delivery_id: string }>(
      pool,
      'SELECT identity, delivery_id FROM dedupe_keys ORDER BY identity',
    );
    expect(keys).toEqual([
      { identity: 'old', delivery_id: result.outcomes[0]!.deliveryId },
      { identity: 'recent', delivery_id: recent.id },
    ]);
  });

  it('writes every item of a failed batch but the one the database refuses, which fails alone', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const earlier = acceptItem('earlier');
    await store.commit([accept(earlier)]);
    const good = acceptItem('good');
    const refused = rejection('bad signature');
    // The same delivery ID twice: the primary key refuses the row, and with it the statement.
    const clash = acceptItem('clash', { id: earlier.id });
    // Issue 24: a declared 1e19 bytes is out of range for bigint.
    const absurd: RejectionItem = { ...rejection('too large'), size: 1e19 };
    const later = acceptItem('later');

    const result = await store.commit([
      accept(good),
      { kind: 'reject', item: refused },
      accept(clash),
      { kind: 'reject', item: absurd },
      accept(later),
    ]);
    expect(result.failed?.map((f) => [f.index, f.id])).toEqual([
      [2, clash.id],
      [3, absurd.id],
    ]);
    expect(result.failed?.[0]?.message).toMatch(/unique constraint/);
    expect(result.failed?.[1]?.message).toMatch(/out of range/);
    expect(result.outcomes.map((o) => [o.label, o.deliveryId])).toEqual([
      ['Accepted', good.id],
      ['Accepted', later.id],
    ]);
    expect(result.committed.map((d) => d.id)).toEqual([good.id, refused.id, later.id]);

    const count = async (table: string): Promise<number> =>
      (await rows<{ n: number }>(pool, `SELECT count(*) AS n FROM ${table}`))[0]!.n;
    expect(await count('deliveries')).toBe(4);
    expect(await count('payloads')).toBe(3);
    expect(await count('runs')).toBe(3);
  });

  it('fails a batch of one as it is, with the server’s error', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const absurd: RejectionItem = { ...rejection('too large'), size: 1e19 };
    await expect(store.commit([{ kind: 'reject', item: absurd }])).rejects.toMatchObject({
      code: '22003',
    });
  });

  it('refuses a batch larger than one statement can carry, writing nothing, with a clear error', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    expect(store.maxBatchItems).toBe(10_000);
    const items = Array.from({ length: 10_001 }, (_, i) => accept(acceptItem(`many-${i}`)));

    await expect(store.commit(items)).rejects.toThrow(
      'a batch statement takes at most 10000 items',
    );
    const stored = await rows<{ n: number }>(pool, 'SELECT count(*) AS n FROM deliveries');
    expect(stored[0]!.n).toBe(0);
  });

  it('stores 256 KB payloads byte for byte, whatever the bytes', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const bodies = [randomBytes(262_144), Buffer.alloc(262_144, 0), randomBytes(262_144)];
    const items = bodies.map((body, i) => acceptItem(`big-${i}`, { body }));

    await store.commit(items.map(accept));

    for (const [i, item] of items.entries()) {
      const stored = await rows<{ body: Buffer; size: number }>(
        pool,
        'SELECT p.body, d.size FROM payloads p JOIN deliveries d ON d.id = p.delivery_id WHERE p.delivery_id = $1',
        [item.id],
      );
      expect(stored[0]!.size).toBe(262_144);
      expect(stored[0]!.body.equals(bodies[i]!), `payload ${i}`).toBe(true);
    }
  });

  it('answers only after COMMIT: a replica holding the same identity uncommitted decides the outcome', async () => {
    const { pool, openPool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    const other = await openPool().connect();
    try {
      for (const ending of ['ROLLBACK', 'COMMIT'] as const) {
        const identity = `held-${ending}`;
        const held = acceptItem(identity);
        await other.query('BEGIN');
        await other.query(
          'INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at) VALUES ($1, $2, $3, $4)',
          [WEBHOOK, identity, held.id, held.receivedAt],
        );
        let settled = false;
        const pending = store.commit([accept(acceptItem(identity))]).finally(() => {
          settled = true;
        });
        await waitFor(
          async () =>
            (
              await rows(
                pool,
                "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
              )
            ).length > 0,
          'the store to wait on the other transaction',
        );
        expect(settled).toBe(false);
        await other.query(ending);
        const result = await pending;
        expect(result.outcomes[0]!.label).toBe(ending === 'ROLLBACK' ? 'Accepted' : 'Duplicate');
      }
    } finally {
      other.release();
    }
  });

  it('carries the group commit: concurrent deliveries share transactions, each resolved once durable', async () => {
    const { pool, openPool } = await postgres.database();
    const inner = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    let transactions = 0;
    const committed: string[] = [];
    const writer = new DeliveryWriter(
      {
        commit: (batch) => {
          transactions++;
          return inner.commit(batch);
        },
      },
      { onCommit: (rows) => committed.push(...rows.map((r) => r.id)), onError: () => undefined },
    );
    const observer = openPool();

    const outcomes = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const outcome = await writer.accept(acceptItem(`group-${i}`));
        // Resolved means committed: another replica's connection sees the row at once.
        const seen = await observer.query('SELECT 1 FROM deliveries WHERE id = $1', [
          outcome.deliveryId,
        ]);
        expect(seen.rowCount).toBe(1);
        return outcome;
      }),
    );

    expect(outcomes.every((o) => o.label === 'Accepted')).toBe(true);
    expect(committed).toHaveLength(200);
    expect(transactions).toBeLessThan(200);
  });

  it('with two batches in flight, accepts one identity once and answers its repeats as duplicates of it', async () => {
    const { pool } = await postgres.database();
    const store = createPostgresBatchStore(pool, { dedupeWindowMs: WINDOW_MS });
    expect(store.commitsInFlight).toBe(2);
    let inFlight = 0;
    let overlapped = false;
    const writer = new DeliveryWriter(
      {
        commit: async (batch) => {
          overlapped ||= ++inFlight > 1;
          try {
            return await store.commit(batch);
          } finally {
            inFlight--;
          }
        },
      },
      { maxInFlight: store.commitsInFlight, onCommit: () => undefined, onError: () => undefined },
    );
    // The repeats arrive one event-loop turn apart, so that they land in different batches.
    const outcomes: Array<Promise<AcceptOutcome>> = [];
    for (let i = 0; i < 40; i++) {
      outcomes.push(writer.accept(acceptItem('same-identity')));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const settled = await Promise.all(outcomes);

    expect(overlapped).toBe(true);
    const accepted = settled.filter((o) => o.label === 'Accepted');
    expect(accepted).toHaveLength(1);
    for (const o of settled) {
      if (o.label === 'Duplicate') expect(o.duplicateOf).toBe(accepted[0]!.deliveryId);
    }
    const rows = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM deliveries WHERE identity = 'same-identity'`,
    );
    expect(rows.rows[0]!.n).toBe(40);
  });
});
