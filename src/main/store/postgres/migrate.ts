import { schemaVersions, type SchemaVersion } from '../schema-versions.js';
import { JOB_LOCK_NAMESPACE, jobLockKey } from './advisory-lock.js';
import { withTransaction } from './client.js';
import type { PgPool } from './pool.js';

/**
 * Brings the database to the newest schema version: every pending version in one transaction
 * (PostgreSQL DDL is transactional: all or nothing), under a transaction advisory lock so that
 * replicas starting together migrate once, one after the other; the later ones find nothing to
 * do. A transaction lock also works behind a transaction-mode pooler. Returns the version.
 */
export async function migratePostgres(
  pool: PgPool,
  versions: readonly SchemaVersion[] = schemaVersions,
): Promise<number> {
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [
      JOB_LOCK_NAMESPACE,
      jobLockKey('migrations'),
    ]);
    await client.query(`CREATE TABLE IF NOT EXISTS hookport_schema (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ current: number }>(
      'SELECT coalesce(max(version), 0) AS current FROM hookport_schema',
    );
    const current = rows[0]!.current;
    if (current > versions.length) {
      throw new Error(
        `The database is at schema version ${current}, newer than this Hookport (${versions.length}). Upgrade Hookport.`,
      );
    }
    for (const step of versions.slice(current)) {
      if (step.postgres.trim() !== '') await client.query(step.postgres);
      await client.query('INSERT INTO hookport_schema (version, name) VALUES ($1, $2)', [
        step.version,
        step.name,
      ]);
    }
    return versions.length;
  });
}
