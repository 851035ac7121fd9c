import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/main/store/postgres/database-url.js';
import { openPostgresPool } from '../../../src/main/store/postgres/pool.js';
import { usePostgres } from '../../support/postgres.js';

const postgres = usePostgres();

describe('the PostgreSQL pool', () => {
  it('refuses a database URL it cannot use, saying what to fix and never echoing the password', () => {
    const cases: Array<[string, RegExp]> = [
      ['hookport', /not a URL: use postgres:\/\/user:password@host:5432\/db/],
      ['mysql://u:s3cret@db/hookport', /must start with postgres:\/\/ \(not mysql:\/\/\)/],
      ['postgres://u:s3cret@db.example', /names no database: add it as the path/],
      ['postgres://u:s3cret@db.example/', /names no database/],
    ];
    for (const [url, message] of cases) {
      expect(() => parseDatabaseUrl(url), url).toThrow(message);
      expect(() => openPostgresPool(url)).toThrow(message);
      try {
        parseDatabaseUrl(url);
      } catch (error) {
        expect(String(error)).not.toContain('s3cret');
      }
    }
    expect(parseDatabaseUrl('postgresql://u:p@127.0.0.1:5432/hookport').pathname).toBe('/hookport');
  });

  it('never JIT-compiles a statement, even one the planner costs past jit_above_cost', async () => {
    const { url } = await postgres.database();
    const explain = async (client: pg.ClientBase): Promise<string> => {
      // Any plan passes the cost threshold: a plain connection compiles it (the default: jit on).
      await client.query('SET jit_above_cost = 0');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        'EXPLAIN (ANALYZE, FORMAT TEXT) SELECT sum(g) FROM generate_series(1, 1000) g',
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    try {
      expect(await explain(plain)).toMatch(/JIT:/);
    } finally {
      await plain.end();
    }
    const pool = openPostgresPool(url);
    const client = await pool.connect();
    try {
      expect(await explain(client)).not.toMatch(/JIT:/);
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('commits durably even where the database default is synchronous_commit=off', async () => {
    const { url, pool: admin } = await postgres.database();
    const name = new URL(url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    const before = await plain.query<{ setting: string }>(
      "SELECT current_setting('synchronous_commit') AS setting",
    );
    await plain.end();
    expect(before.rows[0]!.setting).toBe('off');

    const pool = openPostgresPool(url);
    try {
      const { rows } = await pool.query<{ setting: string }>(
        "SELECT current_setting('synchronous_commit') AS setting",
      );
      expect(rows[0]!.setting).toBe('on');
      await pool.query(`ALTER DATABASE ${name} SET synchronous_commit = remote_apply`);
      const stronger = openPostgresPool(url);
      try {
        const again = await stronger.query<{ setting: string }>(
          "SELECT current_setting('synchronous_commit') AS setting",
        );
        expect(again.rows[0]!.setting).toBe('remote_apply');
      } finally {
        await stronger.end();
      }
    } finally {
      await pool.end();
    }
  });

  it('reads BIGINT milliseconds and counts as numbers', async () => {
    const { pool } = await postgres.database();
    const { rows } = await pool.query<{ ms: number; n: number }>(
      'SELECT 1767225600123::BIGINT AS ms, count(*) AS n FROM generate_series(1, 3)',
    );
    expect(rows[0]).toEqual({ ms: 1767225600123, n: 3 });
  });
});
