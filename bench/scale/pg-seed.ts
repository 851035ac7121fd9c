/**
 * The scale benchmark's week (seed-week.ts) written into a relay's PostgreSQL database, as the
 * accept path's rows (batch-statement.ts): the entries, their requests, payloads and dedupe keys,
 * 2,000 rows a statement (`unnest` of arrays), without waiting for each commit's WAL flush (a seed
 * cut short is seeded again). The log search's two GIN indexes are dropped while the rows go in
 * and built again after, as they were defined, in one pass each (a relay that ran all week holds
 * them built): all but the newest `leaveQueued` entries are born indexed (migration 10's `indexed`),
 * those wait for the relays' indexers.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { weekRows, type SeededWeek, type WeekRow, type WeekShape } from './seed-week.js';

const ROWS = 2_000;
const SEARCH_INDEXES = ['deliveries_search', 'payloads_search'];

export interface PgSeeded extends SeededWeek {
  seededMs: number;
  indexedMs: number;
}

async function insertRows(client: pg.Client, rows: WeekRow[], indexedUpTo: number, first: number) {
  const indexed = rows.map((_, n) => first + n < indexedUpTo);
  await client.query(
    `INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source,
                             client_address, reason, event_type, indexed)
     SELECT id, uid, label, size, at, identity, 'x-service-delivery-id', '127.0.0.1', reason, type, ix
     FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[],
                 $7::text[], $8::text[], $9::boolean[])
       AS r(id, uid, label, size, at, identity, reason, type, ix)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.webhookUid),
      rows.map((r) => r.label),
      rows.map((r) => r.size),
      rows.map((r) => r.receivedAt),
      rows.map((r) => r.identity),
      rows.map((r) => r.reason),
      rows.map((r) => r.eventType),
      indexed,
    ],
  );
  await client.query(
    `INSERT INTO request_contexts (delivery_id, method, path, headers)
     SELECT id, 'POST', path, headers FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, path, headers)`,
    [rows.map((r) => r.id), rows.map((r) => r.path), rows.map((r) => r.headers)],
  );
  const accepted = rows.flatMap((r, n) => (r.body ? [{ r, ix: indexed[n]! }] : []));
  await client.query(
    `INSERT INTO payloads (delivery_id, body, indexed)
     SELECT id, body, ix FROM unnest($1::text[], $2::bytea[], $3::boolean[]) AS r(id, body, ix)`,
    [accepted.map((a) => a.r.id), accepted.map((a) => a.r.body), accepted.map((a) => a.ix)],
  );
  await client.query(
    `INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
     SELECT uid, identity, id, at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
       AS r(uid, identity, id, at)`,
    [
      accepted.map((a) => a.r.webhookUid),
      accepted.map((a) => a.r.identity),
      accepted.map((a) => a.r.id),
      accepted.map((a) => a.r.receivedAt),
    ],
  );
}

export async function pgSeed(
  databaseUrl: string,
  shape: WeekShape,
  leaveQueued: number,
  say: (line: string) => void,
): Promise<PgSeeded> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SET synchronous_commit = off');
    await client.query("SET maintenance_work_mem = '512MB'");
    const definitions = (
      await client.query<{ indexdef: string }>(
        'SELECT indexdef FROM pg_indexes WHERE indexname = ANY($1::text[])',
        [SEARCH_INDEXES],
      )
    ).rows.map((r) => r.indexdef);
    for (const name of SEARCH_INDEXES) await client.query(`DROP INDEX ${name}`);

    const week: SeededWeek = {
      payloadBytes: 0,
      perWebhook: shape.webhookUids.map(() => 0),
      rareOrder: 0,
    };
    let started = performance.now();
    const indexedUpTo = shape.entries - leaveQueued;
    let batch: WeekRow[] = [];
    let written = 0;
    for (const row of weekRows(shape, week)) {
      batch.push(row);
      if (batch.length < ROWS) continue;
      await insertRows(client, batch, indexedUpTo, written);
      written += batch.length;
      batch = [];
      if (written % 100_000 === 0) say(`seeded ${written.toLocaleString('en-US')}`);
    }
    if (batch.length > 0) await insertRows(client, batch, indexedUpTo, written);
    const seededMs = performance.now() - started;

    started = performance.now();
    for (const definition of definitions) await client.query(definition);
    await client.query('VACUUM ANALYZE deliveries, payloads, request_contexts, dedupe_keys');
    const indexedMs = performance.now() - started;
    return { ...week, seededMs, indexedMs };
  } finally {
    await client.end();
  }
}
