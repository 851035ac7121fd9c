/**
 * The naive PostgreSQL baseline: node:http + JSON.parse + one transaction per request on a pool
 * (synchronous_commit=on, as the relay's): the dedupe key by `ON CONFLICT`, the log row, its
 * request context and its payload (the relay's rows, in the relay's migrated schema, indexed for
 * search in the same transaction: a naive server has no background indexer), COMMIT, then 202.
 * The database comes from HOOKPORT_DATABASE_URL. `no-search` leaves the search out, as
 * relay-server.ts does, to compare without it.
 * Usage: naive-postgres-server.ts <pool-size> [no-search]. Prints `{"url"}` when listening.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { newDeliveryId } from '../../src/main/ids.js';
import { withTransaction } from '../../src/main/store/postgres/client.js';
import { migratePostgres } from '../../src/main/store/postgres/migrate.js';
import { openPostgresPool } from '../../src/main/store/postgres/pool.js';
import { onJsonBody, reply, serveBaseline } from './baseline-server.js';
import { POSTGRES_INDEXED_AT_INSERT, POSTGRES_WITHOUT_SEARCH } from './without-search.js';

const WEBHOOK = 'wh_naivepostgres00000000000';
const databaseUrl = process.env.HOOKPORT_DATABASE_URL;
if (!databaseUrl) throw new Error('naive-postgres-server: set HOOKPORT_DATABASE_URL');
const pool = openPostgresPool(databaseUrl, { max: Number(process.argv[2] ?? 10) });
await migratePostgres(pool);
await pool.query(
  process.argv[3] === 'no-search' ? POSTGRES_WITHOUT_SEARCH : POSTGRES_INDEXED_AT_INSERT,
);

async function accept(req: IncomingMessage, id: string, body: Buffer): Promise<void> {
  const header = req.headers['x-service-delivery-id'];
  const [identity, identitySource] =
    typeof header === 'string'
      ? [header, 'x-service-delivery-id']
      : [createHash('sha256').update(body).digest('hex'), 'payload-sha256'];
  const receivedAt = Date.now();
  await withTransaction(pool, async (client) => {
    const claimed = await client.query(
      `INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [WEBHOOK, identity, id, receivedAt],
    );
    const label = claimed.rowCount === 1 ? 'Accepted' : 'Duplicate';
    await client.query(
      `INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source, client_address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, WEBHOOK, label, body.length, receivedAt, identity, identitySource, '127.0.0.1'],
    );
    await client.query(
      'INSERT INTO request_contexts (delivery_id, method, path, headers) VALUES ($1, $2, $3, $4)',
      [id, req.method, req.url, JSON.stringify(Object.entries(req.headers))],
    );
    if (label === 'Accepted') {
      await client.query('INSERT INTO payloads (delivery_id, body) VALUES ($1, $2)', [id, body]);
    }
  });
}

serveBaseline(
  onJsonBody((req, res, body) => {
    const id = newDeliveryId(Date.now());
    accept(req, id, body).then(
      () => reply(res, 202, { delivery_id: id }),
      (error: unknown) => reply(res, 503, { error: String(error) }),
    );
  }),
  () => pool.end(),
);
