import { deriveKey, openSecret, parseMasterKey, sealSecret } from '../../secrets/secret-cipher.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { PgPool } from './pool.js';

/**
 * Secret values in PostgreSQL, sealed with AES-256-GCM (secret-cipher.ts, as the encrypted file
 * store) under HOOKPORT_MASTER_KEY, which never enters the database. Every replica reads the
 * same rows, so a value set through one is the value every replica reads next.
 *
 * `backend` is 'postgres': SecretStore's union (and the contract's SECRET_BACKENDS) gains it
 * when the store is wired in.
 */
export class PostgresSecretStore implements Omit<SecretStore, 'backend'> {
  readonly backend = 'postgres' as const;
  readonly description = 'encrypted in PostgreSQL (AES-256-GCM under HOOKPORT_MASTER_KEY)';

  constructor(
    private readonly pool: PgPool,
    private readonly key: Buffer,
  ) {}

  /** Every replica must decrypt what any other wrote: the key comes from the environment only. */
  static fromEnvironment(pool: PgPool, masterKey: string | undefined): PostgresSecretStore {
    if (masterKey === undefined || masterKey === '') {
      throw new Error(
        'Set HOOKPORT_MASTER_KEY (32 bytes, 64 hex digits or base64) to run on PostgreSQL: every replica needs the same key, and it is never stored in the database.',
      );
    }
    return new PostgresSecretStore(pool, parseMasterKey(masterKey));
  }

  async get(account: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ iv: Buffer; tag: Buffer; data: Buffer }>(
      'SELECT iv, tag, data FROM secret_values WHERE account = $1',
      [account],
    );
    return rows[0] ? openSecret(this.key, account, rows[0]) : null;
  }

  async set(account: string, value: string): Promise<void> {
    const { iv, tag, data } = sealSecret(this.key, account, value);
    await this.pool.query(
      `INSERT INTO secret_values (account, iv, tag, data, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (account) DO UPDATE
         SET iv = excluded.iv, tag = excluded.tag, data = excluded.data, updated_at = excluded.updated_at`,
      [account, iv, tag, data, Date.now()],
    );
  }

  /** The same on every replica: they share HOOKPORT_MASTER_KEY. */
  derivedKey(purpose: string): Buffer {
    return deriveKey(this.key, purpose);
  }

  async delete(account: string): Promise<void> {
    await this.pool.query('DELETE FROM secret_values WHERE account = $1', [account]);
  }
}
