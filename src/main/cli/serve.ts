import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliCommand } from './cli-command.js';
import { parseCommandLine } from './command-line.js';
import { DEFAULT_ADMIN_PORT, DEFAULT_INGRESS_PORT, defaultDataDir } from '../config.js';
import { startCore } from '../core.js';
import { parseDatabaseUrl } from '../store/postgres/database-url.js';
import { publicUrlProblem } from '../../shared/contract/relay.js';
import { UsageError, parsePort } from './usage.js';
import {
  printTunnelChanges,
  publicUrlLine,
  tunnelChoiceFrom,
  tunnelSettled,
} from './serve-tunnel.js';

/** Where the built UI sits next to the bundled CLI (out/main/cli.js → out/renderer). */
const bundledUiDir = (): string => fileURLToPath(new URL('../renderer', import.meta.url));

export async function serve(args: string[]): Promise<void> {
  const { values } = parseCommandLine({
    args,
    options: {
      'data-dir': { type: 'string' },
      'ingress-host': { type: 'string' },
      'ingress-port': { type: 'string' },
      'admin-port': { type: 'string' },
      'public-url': { type: 'string' },
      definitions: { type: 'string' },
      database: { type: 'string' },
      'trust-proxy': { type: 'boolean' },
      tunnel: { type: 'string' },
      'tunnel-domain': { type: 'string' },
    },
    allowPositionals: false,
  });
  const publicUrl = values['public-url'];
  const problem = publicUrl === undefined ? null : publicUrlProblem(publicUrl);
  if (problem) throw new UsageError(`--public-url ${problem}, not "${publicUrl}"`);
  const dataDir = resolve(values['data-dir'] ?? process.env.HOOKPORT_DATA_DIR ?? defaultDataDir());
  const databaseUrl = values.database ?? process.env.HOOKPORT_DATABASE_URL ?? null;
  const database = databaseUrl ? checkedDatabaseUrl(databaseUrl) : null;
  const runLeaseMs = parseRunLeaseMs(process.env.HOOKPORT_RUN_LEASE_MS);
  const tunnel = tunnelChoiceFrom(values.tunnel, values['tunnel-domain']);

  const core = await startCore({
    dataDir,
    ingress: {
      host: values['ingress-host'] ?? '127.0.0.1',
      port: parsePort(values['ingress-port'], '--ingress-port', DEFAULT_INGRESS_PORT),
    },
    admin: { port: parsePort(values['admin-port'], '--admin-port', DEFAULT_ADMIN_PORT) },
    publicUrl: publicUrl ?? null,
    definitionsDir: values.definitions === undefined ? null : resolve(values.definitions),
    databaseUrl,
    runLeaseMs,
    trustProxy: values['trust-proxy'] ?? false,
    uiDir: process.env.HOOKPORT_UI_DIR ?? bundledUiDir(),
    adminTokenFromEnv: process.env.HOOKPORT_ADMIN_TOKEN,
    masterKeyFromEnv: process.env.HOOKPORT_MASTER_KEY,
    secretBackend: process.env.HOOKPORT_SECRET_BACKEND,
    cliCommand: cliCommand(process.argv[1], process.env.PATH),
    tunnel: tunnel === undefined ? undefined : { choice: tunnel },
  });

  // Listening before the banner says so: a supervisor may send SIGTERM the moment it reads it,
  // and with no listener Node would die at once instead of draining.
  const stopped = new Promise<void>((done) => {
    const shutdown = (signal: string): void => {
      console.log(`Received ${signal}: finishing in-flight deliveries, then closing the database.`);
      core.stop().then(done, (error: unknown) => {
        console.error(error);
        process.exitCode = 1;
        done();
      });
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });

  await tunnelSettled(core);
  const status = await core.service['relay.status']({}, { role: 'manage' });
  const tunnelLine = publicUrlLine(status.tunnel);
  const lines = [
    `Hookport ${core.version} relay is running.`,
    `  Ingress      ${core.ingressListenUrl}  (POST ${status.ingressBaseUrl}/webhooks/w/<uid>)`,
    ...(tunnelLine ? [tunnelLine] : []),
    `  Admin        ${core.adminUrl}`,
    `  Open the UI  ${core.loginLink()}  (single-use link, valid 15 minutes)`,
    `  Secrets      ${core.secrets.description}`,
    `  Data         ${dataDir}`,
    database
      ? `  Store        PostgreSQL ${database.host}${database.pathname} (shared by every relay on it)`
      : `  Store        SQLite ${join(dataDir, 'hookport.sqlite')}`,
    ...(values.definitions === undefined
      ? []
      : [
          `  Definitions  ${resolve(values.definitions)} (applied; watched: the default factory is managed by it)`,
        ]),
  ];
  if (core.adminToken.created) {
    lines.push(
      '',
      `  Admin token (shown once; kept in ${core.adminToken.file}, mode 0600):`,
      `    ${core.adminToken.value}`,
    );
  }
  console.log(lines.join('\n') + '\n');
  printTunnelChanges(core);

  await stopped;
}

/** Shorter leases interrupt a dead relay's runs sooner; a live relay renews every third of it. */
const MIN_RUN_LEASE_MS = 1_000;

function parseRunLeaseMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Number(value);
  if (!/^\d+$/.test(value.trim()) || ms < MIN_RUN_LEASE_MS)
    throw new UsageError(
      `HOOKPORT_RUN_LEASE_MS must be a whole number of milliseconds, at least ${MIN_RUN_LEASE_MS}, not "${value}"`,
    );
  return ms;
}

function checkedDatabaseUrl(value: string): URL {
  try {
    return parseDatabaseUrl(value);
  } catch (error) {
    throw new UsageError(`--database: ${(error as Error).message}`);
  }
}
