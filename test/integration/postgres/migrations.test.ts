import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/main/store/sqlite/db.js';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import { createPostgresDeliveriesRepository } from '../../../src/main/store/postgres/deliveries-repo.js';
import { createPostgresMetricsReader } from '../../../src/main/store/postgres/metrics-reader.js';
import { migratePostgres } from '../../../src/main/store/postgres/migrate.js';
import { schemaVersions } from '../../../src/main/store/schema-versions.js';
import { usePostgres } from '../../support/postgres.js';
import { tempDir } from '../../support/relay.js';
import { accepted, freshEpoch } from '../../support/store-seeds.js';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';

const postgres = usePostgres();

/** What replicas share beyond SQLite's schema; anything else PostgreSQL has, SQLite must have. */
const NEWEST = schemaVersions[schemaVersions.length - 1]!.version;

/** Replicas exist only on PostgreSQL (one SQLite file has one relay). */
const POSTGRES_ONLY_TABLES = [
  'rate_grants',
  'replicas',
  'secret_values',
  // Kept search totals shared by the relays (version 20); SQLite's one relay keeps them in memory.
  'search_totals',
];
const POSTGRES_ONLY_COLUMNS = [
  'runs.lease_owner',
  'runs.lease_expires_at',
  // Queued for the search index (SQLite queues in a table of its own, delivery_search_pending).
  'deliveries.indexed',
  'payloads.indexed',
  // Each connection counts into a shard of its own (two relays write at once; SQLite has one writer).
  'delivery_counts.shard',
  // The order entries joined the search index (version 18: kept totals; SQLite has rowids).
  'deliveries.search_order',
  // Whether the payload is UTF-8, decided when written (version 16: the search text's input).
  'payloads.utf8',
];
const POSTGRES_ONLY_INDEXES = [
  'runs_leases',
  'rate_grants_by_key',
  'rate_grants_by_age',
  // The log search (pg_trgm); SQLite's is its FTS5 table.
  'deliveries_search',
  'deliveries_search_queue',
  'deliveries_summary_search',
  'deliveries_by_search_order',
  'payloads_search',
  'payloads_search_queue',
  'search_totals_by_use',
];
/** SQLite's payload search (FTS5, its shadow tables and its queue); PostgreSQL searches its own way. */
const SQLITE_ONLY_TABLE = /^delivery_search(_|$)/;

function sqliteShape(): { columns: string[]; indexes: string[]; versions: number[] } {
  const db = openDatabase(join(tempDir(), 'shape.sqlite'));
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all();
    const columns = tables
      .filter(({ name }) => !SQLITE_ONLY_TABLE.test(name))
      .flatMap(({ name }) =>
        db
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}')`)
          .all()
          .map((c) => `${name}.${c.name}`),
      );
    const indexes = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
      )
      .all()
      .map((i) => i.name)
      // The search queues' own (version 17: delivery_search_forget by rowid).
      .filter((name) => !SQLITE_ONLY_TABLE.test(name));
    return {
      columns: columns.sort(),
      indexes: indexes.sort(),
      versions: db
        .prepare<[], { version: number }>('SELECT version FROM hookport_schema ORDER BY version')
        .all()
        .map((r) => r.version),
    };
  } finally {
    db.close();
  }
}

async function postgresShape(pool: PgPool): Promise<{ columns: string[]; indexes: string[] }> {
  const columns = await pool.query<{ c: string }>(`
    SELECT table_name || '.' || column_name AS c FROM information_schema.columns
    WHERE table_schema = current_schema()`);
  // Explicitly created indexes (not those behind a primary key or UNIQUE constraint).
  const indexes = await pool.query<{ name: string }>(`
    SELECT indexname AS name FROM pg_indexes i
    WHERE schemaname = current_schema()
      AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`);
  return {
    columns: columns.rows.map((r) => r.c).sort(),
    indexes: indexes.rows.map((r) => r.name).sort(),
  };
}

const versionsIn = async (pool: PgPool): Promise<number[]> =>
  (
    await pool.query<{ version: number }>('SELECT version FROM hookport_schema ORDER BY version')
  ).rows.map((r) => r.version);

describe('PostgreSQL migrations', () => {
  it('mirror the SQLite schema version for version, table for table and column for column', async () => {
    const { pool } = await postgres.database();
    const sqlite = sqliteShape();
    const shape = await postgresShape(pool);

    expect(sqlite.versions).toEqual(schemaVersions.map((v) => v.version));
    expect(await versionsIn(pool)).toEqual(schemaVersions.map((v) => v.version));
    const onlyPostgres = (name: string): boolean =>
      POSTGRES_ONLY_TABLES.includes(name.split('.')[0]!) || POSTGRES_ONLY_COLUMNS.includes(name);
    expect(shape.columns.filter((c) => !onlyPostgres(c))).toEqual(sqlite.columns);
    expect(shape.indexes.filter((i) => !POSTGRES_ONLY_INDEXES.includes(i))).toEqual(sqlite.indexes);
  });

  it('run once when replicas start at the same moment, and not again after', async () => {
    const { pool, openPool } = await postgres.database({ migrate: false });
    const replicas = [pool, openPool(), openPool(), openPool()];

    const versions = await Promise.all(replicas.map((p) => migratePostgres(p)));

    expect(versions).toEqual(replicas.map(() => NEWEST));
    expect(await versionsIn(pool)).toEqual(schemaVersions.map((v) => v.version));
    expect(await migratePostgres(pool)).toBe(NEWEST);
    expect(await versionsIn(pool)).toEqual(schemaVersions.map((v) => v.version));
  });

  it('refuse a database that a newer Hookport has migrated', async () => {
    const { pool } = await postgres.database();
    await pool.query("INSERT INTO hookport_schema (version, name) VALUES ($1, 'from-the-future')", [
      NEWEST + 1,
    ]);

    await expect(migratePostgres(pool)).rejects.toThrow(
      `The database is at schema version ${NEWEST + 1}, newer than this Hookport (${NEWEST}). Upgrade Hookport.`,
    );
  });

  it('apply all pending versions or none: a failing step leaves the database as it was', async () => {
    const { pool } = await postgres.database({ migrate: false });
    const broken = [
      ...schemaVersions,
      {
        version: NEWEST + 1,
        name: 'broken',
        sqlite: () => undefined,
        postgres: 'CREATE TABLE half_done (x INTEGER); SELECT no_such_column FROM half_done;',
      },
    ];

    await expect(migratePostgres(pool, broken)).rejects.toThrow(/no_such_column/);
    const tables = await pool.query(
      'SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema()',
    );
    expect(tables.rowCount).toBe(0);
    expect(await migratePostgres(pool)).toBe(NEWEST);
  });

  it('apply a lower version that lands after a higher one', async () => {
    const { pool } = await postgres.database({ migrate: false });
    const late = {
      version: 4,
      name: 'late',
      sqlite: () => undefined,
      postgres: 'CREATE TABLE late_arrival (x INTEGER);',
    };
    const withoutLate = schemaVersions.filter((v) => v.version !== late.version);
    await migratePostgres(pool, withoutLate);

    const withLate = [...withoutLate, late].sort((x, y) => x.version - y.version);
    expect(await migratePostgres(pool, withLate)).toBe(NEWEST);

    expect(await versionsIn(pool)).toEqual(withLate.map((v) => v.version));
    expect((await pool.query('SELECT x FROM late_arrival')).rowCount).toBe(0);
  });

  it('make an existing log searchable when the search (version 8) arrives', async () => {
    const { pool } = await postgres.database({ migrate: false });
    await migratePostgres(
      pool,
      schemaVersions.filter((v) => v.version < 8),
    );
    await withSummaryColumn(pool);
    const t0 = freshEpoch();
    const { committed } = await createPostgresBatchStore(pool, { dedupeWindowMs: 1 }).commit([
      accepted('wh_old', t0, '{"city":"Zürich"}'),
      accepted('wh_old', t0 + 1, '{"city":"Bern"}'),
      notUtf8('wh_old', t0 + 2),
    ]);
    expect(await migratePostgres(pool)).toBe(NEWEST);

    const log = createPostgresDeliveriesRepository(pool);
    const found = await log.page('wh_old', 10, null, { q: 'zÜRICH' });
    expect(found.items.map((d) => d.id)).toEqual([committed[0]!.id]);
  });

  it('keep a version-9 log searchable when its search leaves the accept path (version 10)', async () => {
    const { pool } = await postgres.database({ migrate: false });
    await migratePostgres(
      pool,
      schemaVersions.filter((v) => v.version < 10),
    );
    await withSummaryColumn(pool);
    const t0 = freshEpoch();
    const batchStore = createPostgresBatchStore(pool, { dedupeWindowMs: 1 });
    const { committed } = await batchStore.commit([
      accepted('wh_old', t0, '{"city":"Zürich"}'),
      accepted('wh_old', t0 + 1, '{"city":"Bern"}', { identity: 'legacy-identity-7' }),
      notUtf8('wh_old', t0 + 2),
    ]);
    const [zurich, bern, bytes] = committed.map((d) => d.id) as [string, string, string];
    expect(await migratePostgres(pool)).toBe(NEWEST);

    // They were in the indexes before: nothing of them waits for the indexer.
    expect(await createPostgresMetricsReader(pool).searchPending()).toBe(0);
    const log = createPostgresDeliveriesRepository(pool);
    const hits = async (q: string): Promise<string[]> =>
      (await log.page('wh_old', 10, null, { q })).items.map((d) => d.id);
    expect(await hits('zÜRICH')).toEqual([zurich]);
    expect(await hits('LEGACY-identity')).toEqual([bern]);
    expect(await hits(bytes.slice(-12))).toEqual([bytes]);

    // A delivery written after the migration waits for the indexer, and is found meanwhile.
    const { committed: later } = await batchStore.commit([
      accepted('wh_old', t0 + 3, '{"city":"Zürich"}'),
    ]);
    expect(await createPostgresMetricsReader(pool).searchPending()).toBe(1);
    expect(await hits('zürich')).toEqual([later[0]!.id, zurich]);
  });

  it('search payloads that are not UTF-8 beside ones that are, before and after version 16 checks them once', async () => {
    const { pool } = await postgres.database({ migrate: false });
    await migratePostgres(
      pool,
      schemaVersions.filter((v) => v.version < 16),
    );
    const t0 = freshEpoch();
    const batchStore = createPostgresBatchStore(pool, { dedupeWindowMs: 1 });
    const latin1 = (at: number): BatchItem => {
      const item = accepted('wh_bytes', at, '');
      if (item.kind === 'accept') item.item.body = Buffer.from('{"city":"Z\u00fcrich"}', 'latin1');
      return item;
    };
    const { committed } = await batchStore.commit([
      accepted('wh_bytes', t0, '{"city":"Zürich"}'),
      latin1(t0 + 1),
      notUtf8('wh_bytes', t0 + 2),
    ]);
    expect(await migratePostgres(pool)).toBe(NEWEST);
    const flags = await pool.query<{ delivery_id: string; utf8: boolean }>(
      'SELECT delivery_id, utf8 FROM payloads ORDER BY delivery_id',
    );
    expect(flags.rows.map((r) => r.utf8)).toEqual([true, false, false]);

    // Written after the migration: the flag is decided by the INSERT the accept path always made.
    const { committed: later } = await batchStore.commit([
      latin1(t0 + 3),
      accepted('wh_bytes', t0 + 4, '{"city":"Zürich"}'),
    ]);
    const log = createPostgresDeliveriesRepository(pool);
    const page = await log.page('wh_bytes', 10, null, { q: 'ZÜRICH' });
    expect(page.items.map((d) => d.id)).toEqual([later[1]!.id, committed[0]!.id]);
    expect(await log.count('wh_bytes', { q: 'zürich' })).toBe(2);
    // An entry whose payload is not text is still found by its ID.
    const bytes = committed[2]!.id;
    expect(
      (await log.page('wh_bytes', 10, null, { q: bytes.slice(-12) })).items.map((d) => d.id),
    ).toEqual([bytes]);
  });

  it('drop the search totals saved under their search text when version 21 names them by digest', async () => {
    const { pool } = await postgres.database({ migrate: false });
    await migratePostgres(
      pool,
      schemaVersions.filter((v) => v.version < 21),
    );
    await pool.query(`INSERT INTO search_totals (search, kept, used_at) VALUES ($1, '{}', $2)`, [
      '["wh_secrets",{"q":"ghp_leaked0123456789"}]',
      Date.now(),
    ]);
    expect(await migratePostgres(pool)).toBe(NEWEST);
    const { rows } = await pool.query('SELECT search FROM search_totals');
    expect(rows).toEqual([]);
  });
});

/**
 * The old log is written by today's batch store, which names the summary column (version 11):
 * the column is added ahead of its version, as version 11 allows (it adds it only if missing).
 */
async function withSummaryColumn(pool: PgPool): Promise<void> {
  await pool.query('ALTER TABLE deliveries ADD COLUMN summary TEXT');
}

/** An accepted body that is not UTF-8 text (a sender may post any bytes to a token webhook). */
function notUtf8(uid: string, at: number): BatchItem {
  const item = accepted(uid, at, '');
  if (item.kind === 'accept') item.item.body = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
  return item;
}
