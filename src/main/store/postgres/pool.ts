import pg from 'pg';
import { parseDatabaseUrl } from './database-url.js';

/**
 * The PostgreSQL driver is `pg` (node-postgres), not `postgres` (postgres.js): it is the
 * long-maintained reference driver; a transaction is explicit (check a client out, BEGIN, …,
 * COMMIT, release), which is what the group commit needs to resolve only after COMMIT; LISTEN
 * runs on a dedicated `pg.Client` whose reconnects we control; Buffers travel as binary bytea
 * parameters. postgres.js pipelines faster, but hides connections behind tagged templates, and
 * the accept path spends its time in fsync, not in the driver.
 */
export type PgPool = pg.Pool;

export interface PostgresPoolOptions {
  /** Connections per replica: the database sees replicas × max of them. */
  max?: number;
  /** An idle connection failed (the server restarted): logged, never thrown. */
  onIdleError?: (error: Error) => void;
}

const INT8_OID = 20;

/**
 * BIGINT (milliseconds, counts) as a JS number, not pg's default string: every value Hookport
 * stores is far below 2^53. Set per pool, so nothing else in the process is affected.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: (oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as unknown),
};

/**
 * A 202 promises a durable commit: a session whose default is synchronous_commit=off is raised to
 * on; stronger settings (remote_apply with a synchronous standby) are kept.
 */
const DURABLE_COMMITS = `DO $$ BEGIN
  IF current_setting('synchronous_commit') = 'off' THEN SET synchronous_commit = on; END IF;
END $$`;

/**
 * No JIT compiling: the planner's estimates for a search (a trigram LIKE, the queued rows) pass
 * `jit_above_cost` while the statement runs in milliseconds; compiling it took 60–470 ms of a
 * search's first read at 200,000 entries (issue 28; docs/operations/performance.md).
 */
const NO_JIT = 'SET jit = off';

export function openPostgresPool(databaseUrl: string, options: PostgresPoolOptions = {}): PgPool {
  parseDatabaseUrl(databaseUrl);
  // pg-pool awaits onConnect before handing a new client out, and discards the client if it
  // fails (@types/pg declares the hook as returning void).
  const config: pg.PoolConfig & { onConnect: (client: pg.ClientBase) => Promise<void> } = {
    connectionString: databaseUrl,
    max: options.max ?? 10,
    application_name: 'hookport',
    types,
    onConnect: async (client) => {
      await client.query(DURABLE_COMMITS);
      await client.query(NO_JIT);
    },
  };
  const pool = new pg.Pool(config);
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}
