import { toRecord, type SecretRow, type SecretRecord, type SecretsRepository } from '../secrets.js';
import type { Queryable } from './client.js';

const COLUMNS = 'factory_id, name, fingerprint, created_at, rotated_at';

/**
 * secrets-repo.ts on PostgreSQL: names and fingerprints only. Values are PostgresSecretStore's,
 * sealed in secret_values; nothing here ever sees one.
 */
export function createPostgresSecretsRepository(q: Queryable): SecretsRepository {
  const many = async (sql: string, params: unknown[] = []): Promise<SecretRecord[]> =>
    (await q.query<SecretRow>(sql, params)).rows.map(toRecord);

  return {
    all: () => many(`SELECT ${COLUMNS} FROM secrets ORDER BY factory_id, name`),
    list: (factoryId) =>
      many(`SELECT ${COLUMNS} FROM secrets WHERE factory_id = $1 ORDER BY name`, [factoryId]),
    get: async (factoryId, name) => {
      const { rows } = await q.query<SecretRow>(
        `SELECT ${COLUMNS} FROM secrets WHERE factory_id = $1 AND name = $2`,
        [factoryId, name],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    insert: async (r) => {
      await q.query(
        'INSERT INTO secrets (factory_id, name, fingerprint, created_at) VALUES ($1, $2, $3, $4)',
        [r.factoryId, r.name, r.fingerprint, r.createdAt],
      );
    },
    rotate: async (r) => {
      await q.query(
        'UPDATE secrets SET fingerprint = $3, rotated_at = $4 WHERE factory_id = $1 AND name = $2',
        [r.factoryId, r.name, r.fingerprint, r.rotatedAt],
      );
    },
    remove: async (factoryId, name) => {
      await q.query('DELETE FROM secrets WHERE factory_id = $1 AND name = $2', [factoryId, name]);
    },
    setFingerprint: async (factoryId, name, fingerprint) => {
      await q.query('UPDATE secrets SET fingerprint = $3 WHERE factory_id = $1 AND name = $2', [
        factoryId,
        name,
        fingerprint,
      ]);
    },
  };
}
