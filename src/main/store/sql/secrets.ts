import { toRecord, type SecretRow, type SecretsRepository } from '../secrets.js';
import { row, rows, run, type Calls } from './query.js';

const SELECT = 'SELECT factory_id, name, fingerprint, created_at, rotated_at FROM secrets';

/**
 * The secrets table's SQL, for both stores: names and fingerprints only. Values live in the
 * secret store (PostgreSQL: sealed in secret_values); nothing here ever sees one.
 */
export const secretsCalls: Calls<SecretsRepository> = {
  all: () => rows(`${SELECT} ORDER BY factory_id, name`, [], toRecord),
  list: (factoryId) => rows(`${SELECT} WHERE factory_id = $1 ORDER BY name`, [factoryId], toRecord),
  get: (factoryId, name) =>
    row(`${SELECT} WHERE factory_id = $1 AND name = $2`, [factoryId, name], (r?: SecretRow) =>
      r ? toRecord(r) : null,
    ),
  insert: (r) =>
    run('INSERT INTO secrets (factory_id, name, fingerprint, created_at) VALUES ($1, $2, $3, $4)', [
      r.factoryId,
      r.name,
      r.fingerprint,
      r.createdAt,
    ]),
  rotate: (r) =>
    run(
      'UPDATE secrets SET fingerprint = $3, rotated_at = $4 WHERE factory_id = $1 AND name = $2',
      [r.factoryId, r.name, r.fingerprint, r.rotatedAt],
    ),
  remove: (factoryId, name) =>
    run('DELETE FROM secrets WHERE factory_id = $1 AND name = $2', [factoryId, name]),
  setFingerprint: (factoryId, name, fingerprint) =>
    run('UPDATE secrets SET fingerprint = $3 WHERE factory_id = $1 AND name = $2', [
      factoryId,
      name,
      fingerprint,
    ]),
};
