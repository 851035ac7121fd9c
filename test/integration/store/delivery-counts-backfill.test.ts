import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresBatchStore } from '../../../src/main/store/postgres/batch-store.js';
import { migratePostgres } from '../../../src/main/store/postgres/migrate.js';
import { schemaVersions } from '../../../src/main/store/schema-versions.js';
import { runMigrations } from '../../../src/main/store/sqlite/migrate.js';
import { usePostgres } from '../../support/postgres.js';
import { tempDir } from '../../support/relay.js';
import { accepted, freshEpoch, rejected } from '../../support/store-seeds.js';

const COUNTS = 15;
const before = schemaVersions.filter((v) => v.version < COUNTS);
const LABELS = ['Accepted', 'Duplicate', 'Rejected (auth)', 'Rejected (signature)'];
const MINUTE_START = Date.parse('2026-01-01T00:00:00Z');

/** A log written before version 15: 600 entries over 3 webhooks, 3 labels, ~40 minutes. */
const entries = Array.from({ length: 600 }, (_, i) => ({
  id: `dlv_${String(i).padStart(26, '0')}`,
  uid: `wh_${'abc'[i % 3]!.repeat(24)}`,
  label: LABELS[(i * 7) % LABELS.length]!,
  at: MINUTE_START + i * 4_111,
}));

/** The counts the log itself gives, in the table's shape. */
const counted = (): Array<{ uid: string; minute: number; label: string; n: number }> => {
  const by = new Map<string, { uid: string; minute: number; label: string; n: number }>();
  for (const e of entries) {
    const minute = Math.floor(e.at / 60_000);
    const key = `${e.uid}|${minute}|${e.label}`;
    const row = by.get(key) ?? { uid: e.uid, minute, label: e.label, n: 0 };
    row.n++;
    by.set(key, row);
  }
  return [...by.values()].sort(
    (a, b) => a.uid.localeCompare(b.uid) || a.minute - b.minute || a.label.localeCompare(b.label),
  );
};

const COUNTS_SQL = `
  SELECT webhook_uid AS uid, minute, label, CAST(sum(n) AS BIGINT) AS n FROM delivery_counts
  GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;

const INSERT_SQL = `
  INSERT INTO deliveries (id, webhook_uid, label, size, received_at) VALUES ($1, $2, $3, 2, $4)`;

describe('schema version 15 counts an existing log', () => {
  it('on SQLite: the same numbers as counting the entries', () => {
    const db = new Database(join(tempDir(), 'backfill.sqlite'));
    runMigrations(db, before);
    const insert = db.prepare(INSERT_SQL.replace(/\$\d/g, '?'));
    db.transaction(() => {
      for (const e of entries) insert.run(e.id, e.uid, e.label, e.at);
    })();

    runMigrations(db);

    expect(db.prepare(COUNTS_SQL).all()).toEqual(counted());
    db.close();
  });

  const postgres = usePostgres();
  it('on PostgreSQL: the same numbers as counting the entries', async () => {
    const { pool } = await postgres.database({ migrate: false });
    await migratePostgres(pool, before);
    await pool.query(
      `INSERT INTO deliveries (id, webhook_uid, label, size, received_at)
       SELECT id, uid, label, 2, at FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         AS e (id, uid, label, at)`,
      [
        entries.map((e) => e.id),
        entries.map((e) => e.uid),
        entries.map((e) => e.label),
        entries.map((e) => e.at),
      ],
    );

    await migratePostgres(pool);

    const { rows } = await pool.query<{ uid: string; minute: string; label: string; n: string }>(
      COUNTS_SQL,
    );
    expect(
      rows.map((r) => ({ uid: r.uid, minute: Number(r.minute), label: r.label, n: Number(r.n) })),
    ).toEqual(counted());

    // TRUNCATE fires no delete trigger; the counts empty with the log all the same.
    await pool.query('TRUNCATE deliveries');
    expect((await pool.query(COUNTS_SQL)).rows).toEqual([]);
  });

  it('on PostgreSQL: two replicas writing the same minutes at once count exactly, no deadlock', async () => {
    const { pool, openPool } = await postgres.database();
    const replicas = [pool, openPool()].map((p) =>
      createPostgresBatchStore(p, { dedupeWindowMs: 60_000 }),
    );
    const uid = `wh_${'q'.repeat(24)}`;
    const start = freshEpoch();
    for (let round = 0; round < 20; round++) {
      // Both replicas' batches land in the same two minutes and labels, in opposite orders.
      await Promise.all(
        replicas.map((replica, r) =>
          replica.commit(
            Array.from({ length: 10 }, (_, i) => {
              const at = start + ((r === 0 ? i : 9 - i) % 2) * 60_000 + round;
              return i % 3 === 0 ? rejected(uid, at) : accepted(uid, at, `{"r":${r}}`);
            }),
          ),
        ),
      );
    }
    const counts = await pool.query(COUNTS_SQL);
    const log = await pool.query<{ uid: string; minute: string; label: string; n: string }>(
      `SELECT webhook_uid AS uid, received_at / 60000 AS minute, label, count(*) AS n
       FROM deliveries GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    expect(counts.rows).toEqual(log.rows);
    expect(log.rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(400);
  });
});
