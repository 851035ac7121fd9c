import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freeLoopbackPort } from '../../src/main/tunnels/free-port.js';

/** Debian's postgresql package; HOOKPORT_PG_BIN points elsewhere (another version, macOS). */
const PG_BIN = process.env.HOOKPORT_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;

export interface PostgresCluster {
  host: string;
  port: number;
  /** The temp dir holding the data dir, the Unix socket and the server's log. */
  dir: string;
  /** A URL for a database of this cluster as the superuser (password auth over TCP). */
  urlFor(database: string): string;
  /** A fresh, empty database: one per test keeps tests from seeing each other's rows. */
  createDatabase(): Promise<string>;
  /** What the server printed so far, for failure messages. */
  log(): string;
  /** Stops the server (fast shutdown) and deletes the temp dir. Safe to call twice. */
  stop(): Promise<void>;
  /**
   * An outage: `pg_ctl stop -m immediate` (every backend killed at once, no checkpoint, as a
   * crash), resolved once the server is gone. `restart` brings it back on the same port and data.
   */
  crash(): Promise<void>;
  /** Starts the server again after `crash` (crash recovery replays the WAL); resolves once it answers. */
  restart(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

/**
 * initdb and postgres refuse to run as root, and CI runs as root: then both run as the
 * `postgres` system user (which the Debian package creates) in a temp dir it owns. Otherwise
 * they run as the current user.
 */
function serverUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string): number => {
    const out = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error('Running as root needs a "postgres" system user.');
    return Number(out.stdout.trim());
  };
  return { uid: id('-u'), gid: id('-g') };
}

function initdb(dir: string, password: string, runAs: RunAs | null): void {
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (runAs) chownSync(pwfile, runAs.uid, runAs.gid);
  const out = spawnSync(
    join(PG_BIN, 'initdb'),
    [
      '-D',
      join(dir, 'data'),
      '-U',
      'postgres',
      `--pwfile=${pwfile}`,
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
      '--no-locale',
      // Only initdb's own final fsync is skipped (a throwaway cluster); the server runs fsync=on.
      '--no-sync',
      '--no-instructions',
    ],
    { encoding: 'utf8', ...(runAs ?? {}) },
  );
  rmSync(pwfile, { force: true });
  if (out.status !== 0) throw new Error(`initdb failed:\n${out.stdout}\n${out.stderr}`);
}

/**
 * A private PostgreSQL cluster in a temp dir on a free loopback port, durable as production
 * runs it (fsync=on, synchronous_commit=on). Stop it in afterAll; if the test process exits
 * without that, an exit hook stops the server anyway so that none is left behind.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!existsSync(join(PG_BIN, 'postgres'))) {
    throw new Error(
      `No PostgreSQL server in ${PG_BIN}: apt-get install postgresql (or set HOOKPORT_PG_BIN).`,
    );
  }
  const runAs = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'hookport-pg-'));
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const password = randomBytes(12).toString('hex');
  let child: ChildProcess | null = null;
  let output = '';
  const exitHook = (): void => {
    // Synchronous on purpose: this runs as the process exits. SIGQUIT is immediate shutdown.
    if (child?.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', exitHook);

  try {
    initdb(dir, password, runAs);
    for (let attempt = 1; ; attempt++) {
      const port = await freeLoopbackPort();
      output = '';
      const start = (): ChildProcess => {
        const started = spawnServer(dir, port, runAs);
        started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        return (child = started);
      };
      const cluster = makeCluster(dir, port, password, start, () => output, exitHook, runAs);
      if (await cluster.ready()) return cluster;
      // Another process took the port between freeLoopbackPort() and the bind: try another one.
      await cluster.halt();
      if (attempt === 3 || !/could not (bind|create listen)/i.test(output)) {
        throw new Error(`PostgreSQL did not start:\n${output}`);
      }
    }
  } catch (error) {
    exitHook();
    process.off('exit', exitHook);
    throw error;
  }
}

function spawnServer(dir: string, port: number, runAs: RunAs | null): ChildProcess {
  return spawn(
    join(PG_BIN, 'postgres'),
    [
      '-D',
      join(dir, 'data'),
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=on',
      '-c',
      'synchronous_commit=on',
      '-c',
      'max_connections=200',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], ...(runAs ?? {}) },
  );
}

function makeCluster(
  dir: string,
  port: number,
  password: string,
  start: () => ChildProcess,
  log: () => string,
  exitHook: () => void,
  runAs: RunAs | null,
): PostgresCluster & { ready(): Promise<boolean>; halt(): Promise<void> } {
  const host = '127.0.0.1';
  const urlFor = (database: string): string =>
    `postgres://postgres:${password}@${host}:${port}/${database}`;
  let child = start();
  const exitOf = (c: ChildProcess): Promise<void> =>
    new Promise<void>((resolve) => c.once('exit', () => resolve()));
  let exited = exitOf(child);
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  let databases = 0;
  let stopped = false;
  const halt = async (): Promise<void> => {
    if (!running()) return;
    child.kill('SIGINT'); // fast shutdown: ends sessions, checkpoints, exits
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  };

  const cluster = {
    host,
    port,
    dir,
    urlFor,
    log,
    async crash(): Promise<void> {
      const out = spawnSync(
        join(PG_BIN, 'pg_ctl'),
        ['stop', '-D', join(dir, 'data'), '-m', 'immediate', '-w'],
        { encoding: 'utf8', ...(runAs ?? {}) },
      );
      if (out.status !== 0) throw new Error(`pg_ctl stop failed:\n${out.stdout}\n${out.stderr}`);
      await exited;
    },
    async restart(): Promise<void> {
      if (running()) throw new Error('restart() is for after crash(): the server still runs');
      child = start();
      exited = exitOf(child);
      if (!(await cluster.ready())) throw new Error(`PostgreSQL did not start again:\n${log()}`);
    },
    async ready(): Promise<boolean> {
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (running() && Date.now() < deadline) {
        const client = new pg.Client({ connectionString: urlFor('postgres') });
        try {
          await client.connect();
          await client.query('SELECT 1');
          return true;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 50));
        } finally {
          await client.end().catch(() => undefined);
        }
      }
      return false;
    },
    async createDatabase(): Promise<string> {
      const name = `test_${++databases}_${randomBytes(3).toString('hex')}`;
      const client = new pg.Client({ connectionString: urlFor('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlFor(name);
    },
    halt,
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      await halt();
      rmSync(dir, { recursive: true, force: true });
      process.off('exit', exitHook);
    },
  };
  return cluster;
}
