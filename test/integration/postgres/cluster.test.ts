import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startPostgresCluster } from '../../support/postgres-cluster.js';
import { waitFor } from '../../support/wait.js';

const EXIT_WITHOUT_STOP = fileURLToPath(
  new URL('../../fixtures/postgres/exit-without-stop.ts', import.meta.url),
);

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('a private PostgreSQL cluster for tests', () => {
  it('runs durably on loopback only, gives each test its own database, and leaves nothing behind', async () => {
    const cluster = await startPostgresCluster();
    try {
      const settings = await query<{ name: string; setting: string }>(
        cluster.urlFor('postgres'),
        `SELECT name, setting FROM pg_settings
         WHERE name IN ('fsync', 'synchronous_commit', 'listen_addresses', 'server_version_num')`,
      );
      const byName = Object.fromEntries(settings.map((s) => [s.name, s.setting]));
      expect(byName).toMatchObject({
        fsync: 'on',
        synchronous_commit: 'on',
        listen_addresses: '127.0.0.1',
      });
      expect(Number(byName.server_version_num)).toBeGreaterThanOrEqual(150000);

      const first = await cluster.createDatabase();
      const second = await cluster.createDatabase();
      expect(first).not.toBe(second);
      await query(first, 'CREATE TABLE only_here (x int)');
      const seen = await query<{ n: string }>(
        second,
        "SELECT count(*) AS n FROM pg_tables WHERE tablename = 'only_here'",
      );
      expect(seen[0]!.n).toBe('0');

      await expect(
        query(cluster.urlFor('postgres').replace(/:[^:@]+@/, ':wrong@'), 'SELECT 1'),
      ).rejects.toThrow(/password authentication failed/);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
    expect(await refused(cluster.port)).toBe(true);
  });

  it('is stopped and removed even when the test process exits without stopping it', async () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', EXIT_WITHOUT_STOP], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status, child.stderr).toBe(3);
    const { dir, port } = JSON.parse(child.stdout) as { dir: string; port: number };
    expect(existsSync(dir)).toBe(false);
    await waitFor(() => refused(port), `the server on port ${port} to be gone`);
  });
});
