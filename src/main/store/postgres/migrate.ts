import { schemaVersions, type SchemaVersion } from '../schema-versions.js';
import { JOB_LOCK_NAMESPACE, jobLockKey } from './advisory-lock.js';
import { withTransaction } from './client.js';
import type { PgPool } from './pool.js';

/**
 * Brings the database to the newest schema: every version not yet applied, in order, in one
 * transaction (PostgreSQL DDL is transactional: all or nothing), under a transaction advisory
 * lock so that replicas starting together migrate once, one after the other; the later ones find
 * nothing to do. A transaction lock also works behind a transaction-mode pooler. Applied versions
 * are recorded one by one, so a lower number that lands late is still applied. Returns the
 * newest version.
 */
export async function migratePostgres(
  pool: PgPool,
  versions: readonly SchemaVersion[] = schemaVersions,
): Promise<number> {
  const newest = versions[versions.length - 1]?.version ?? 0;
  return withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [
      JOB_LOCK_NAMESPACE,
      jobLockKey('migrations'),
    ]);
    await client.query(`CREATE TABLE IF NOT EXISTS hookport_schema (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM hookport_schema');
    const applied = new Set(rows.map((r) => r.version));
    const unknown = [...applied].filter((v) => !versions.some((step) => step.version === v));
    if (unknown.length > 0) {
      throw new Error(
        `The database is at schema version ${Math.max(...unknown)}, newer than this Hookport (${newest}). Upgrade Hookport.`,
      );
    }
    for (const step of versions) {
      if (applied.has(step.version)) continue;
      if (step.postgres.trim() !== '') await client.query(step.postgres);
      await client.query('INSERT INTO hookport_schema (version, name) VALUES ($1, $2)', [
        step.version,
        step.name,
      ]);
    }
    return newest;
  });
}
