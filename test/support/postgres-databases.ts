import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';

let adminUrl: Promise<string> | null = null;
const created: string[] = [];

async function askForCluster(): Promise<string> {
  const response = await fetch(inject('postgresClusterUrl'));
  if (!response.ok) throw new Error(`PostgreSQL did not start:\n${await response.text()}`);
  return ((await response.json()) as { adminUrl: string }).adminUrl;
}

async function asAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: await adminUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database in the run's shared cluster (test/support/shared-postgres.ts); one per
 * test (or per data dir) keeps tests from seeing each other's rows. The file's databases are
 * dropped after its tests.
 */
export async function createTestDatabase(): Promise<string> {
  adminUrl ??= askForCluster();
  const name = `test_${randomBytes(6).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  created.push(name);
  const url = new URL(await adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  // FORCE ends sessions a test left open (a relay killed on purpose, a pool not ended).
  for (const name of created.splice(0)) await asAdmin(`DROP DATABASE ${name} WITH (FORCE)`);
});
