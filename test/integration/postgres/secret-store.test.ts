import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSecretValue } from '../../../src/main/ids.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { PostgresSecretStore } from '../../../src/main/store/postgres/secret-store.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();
const KEY = randomBytes(32).toString('hex');

/** Every row of every table as PostgreSQL prints it (bytea as hex), to search for a value. */
async function everythingStored(pool: PgPool): Promise<string> {
  const tables = await pool.query<{ name: string }>(
    'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
  );
  let text = '';
  for (const { name } of tables.rows) {
    const rows = await pool.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
    text += rows.rows.map((r) => r.row).join('\n');
  }
  return text;
}

describe('PostgresSecretStore', () => {
  it('keeps values encrypted: no plaintext in any table, read back raw', async () => {
    const { pool } = await postgres.database();
    const store = PostgresSecretStore.fromEnvironment(pool, KEY);
    const value = newSecretValue();

    await store.set('default/github', value);

    expect(await store.get('default/github')).toBe(value);
    const raw = await pool.query<{ iv: Buffer; tag: Buffer; data: Buffer }>(
      'SELECT iv, tag, data FROM secret_values',
    );
    expect(raw.rows).toHaveLength(1);
    const { iv, tag, data } = raw.rows[0]!;
    expect([iv.length, tag.length, data.length]).toEqual([12, 16, Buffer.byteLength(value)]);
    const plain = Buffer.from(value, 'utf8');
    for (const column of [iv, tag, data]) expect(column.includes(plain)).toBe(false);
    const dump = await everythingStored(pool);
    expect(dump).toContain('default/github');
    for (const encoding of ['utf8', 'hex', 'base64'] as const) {
      expect(dump).not.toContain(plain.toString(encoding));
    }
    expect(dump).not.toContain(KEY);
  });

  it('shares values between replicas: a rotation through one is what the other reads next', async () => {
    const { pool, openPool } = await postgres.database();
    const one = PostgresSecretStore.fromEnvironment(pool, KEY);
    const other = PostgresSecretStore.fromEnvironment(openPool(), KEY);
    await one.set('default/stripe', 'first value');
    expect(await other.get('default/stripe')).toBe('first value');

    await one.set('default/stripe', 'rotated value');
    expect(await other.get('default/stripe')).toBe('rotated value');

    await other.delete('default/stripe');
    expect(await one.get('default/stripe')).toBeNull();
    expect(await one.get('default/never-set')).toBeNull();
  });

  it('refuses to decrypt with another master key, or under another account', async () => {
    const { pool } = await postgres.database();
    await PostgresSecretStore.fromEnvironment(pool, KEY).set('default/a', 'value of a');
    const wrongKey = PostgresSecretStore.fromEnvironment(pool, randomBytes(32).toString('base64'));
    await expect(wrongKey.get('default/a')).rejects.toThrow(
      'Secret default/a cannot be decrypted: the master key is not the one it was stored with.',
    );
    // Someone with write access copies a's ciphertext onto b: it does not become b's value.
    await pool.query(
      "INSERT INTO secret_values SELECT 'default/b', iv, tag, data, updated_at FROM secret_values WHERE account = 'default/a'",
    );
    await expect(PostgresSecretStore.fromEnvironment(pool, KEY).get('default/b')).rejects.toThrow(
      /Secret default\/b cannot be decrypted/,
    );
  });

  it('needs HOOKPORT_MASTER_KEY from the environment, well formed', async () => {
    const { pool } = await postgres.database();
    expect(() => PostgresSecretStore.fromEnvironment(pool, undefined)).toThrow(
      /Set HOOKPORT_MASTER_KEY \(32 bytes, 64 hex digits or base64\) to run on PostgreSQL/,
    );
    expect(() => PostgresSecretStore.fromEnvironment(pool, 'too-short')).toThrow(
      'HOOKPORT_MASTER_KEY must be 32 bytes written as 64 hex digits or base64.',
    );
  });
});
