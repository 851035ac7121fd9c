import { type SecretRecord, type SecretRow, toRecord, type SecretsRepository } from '../secrets.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

export function createSecretsRepository(db: Db): Sync<SecretsRepository> {
  const all = db.prepare<[], SecretRow>('SELECT * FROM secrets ORDER BY factory_id, name');
  const byFactory = db.prepare<[string], SecretRow>(
    'SELECT * FROM secrets WHERE factory_id = ? ORDER BY name',
  );
  const one = db.prepare<[string, string], SecretRow>(
    'SELECT * FROM secrets WHERE factory_id = ? AND name = ?',
  );
  const insert = db.prepare(
    'INSERT INTO secrets (factory_id, name, fingerprint, created_at) VALUES (@factoryId, @name, @fingerprint, @createdAt)',
  );
  const rotate = db.prepare(
    'UPDATE secrets SET fingerprint = @fingerprint, rotated_at = @rotatedAt WHERE factory_id = @factoryId AND name = @name',
  );
  const remove = db.prepare('DELETE FROM secrets WHERE factory_id = ? AND name = ?');
  const setFingerprint = db.prepare(
    'UPDATE secrets SET fingerprint = ? WHERE factory_id = ? AND name = ?',
  );

  return {
    all: (): SecretRecord[] => all.all().map(toRecord),
    list: (factoryId: string): SecretRecord[] => byFactory.all(factoryId).map(toRecord),
    get: (factoryId: string, name: string): SecretRecord | null => {
      const row = one.get(factoryId, name);
      return row ? toRecord(row) : null;
    },
    insert: (r: {
      factoryId: string;
      name: string;
      fingerprint: string;
      createdAt: number;
    }): void => {
      insert.run(r);
    },
    rotate: (r: {
      factoryId: string;
      name: string;
      fingerprint: string;
      rotatedAt: number;
    }): void => {
      rotate.run(r);
    },
    remove: (factoryId: string, name: string): void => {
      remove.run(factoryId, name);
    },
    /** A fingerprint made again (under the relay's fingerprint key); not a rotation. */
    setFingerprint: (factoryId: string, name: string, fingerprint: string): void => {
      setFingerprint.run(fingerprint, factoryId, name);
    },
  };
}
