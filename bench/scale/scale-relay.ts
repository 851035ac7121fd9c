/**
 * The relay of the scale benchmark, in a child process of its own (bundled by
 * bench/ingress/processes.ts): `startCore` on a data dir the benchmark seeded (or an empty one),
 * the limits raised, and one JSON line on stdout once it listens, with how long it took to get
 * there. A webhook "sender" (Bearer token) takes the paced genuine sender's deliveries.
 *   scale-relay.mjs <data-dir> [--trace] [--join]   (--trace: slow-statements.ts, on stderr)
 * With HOOKPORT_DATABASE_URL (and HOOKPORT_MASTER_KEY) in the environment it runs on PostgreSQL,
 * as `hookport serve --database` does; `--join`: another relay on that database created the
 * sender's webhook (its secret is the creator's, and `senderSecret` is empty here).
 * IPC: `"pending"` answers the entries still queued for the search index, `"loop"` the event
 * loop's delay since the last ask (monitorEventLoopDelay, 1 ms resolution); the relay's
 * `[retention]` and `[search]` log lines are sent as `{ log }`. SIGTERM stops it cleanly.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startCore } from '../../src/main/core.js';
import type { Logger } from '../../src/main/log.js';
import { traceSlowStatements } from './slow-statements.js';

export interface ScaleRelayInfo {
  ingressUrl: string;
  adminUrl: string;
  adminToken: string;
  senderUrl: string;
  senderSecret: string;
  /** From the process's start to listening. */
  readyMs: number;
}

const [dataDir, ...options] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: scale-relay.ts <data-dir> [--trace] [--join]');
const databaseUrl = process.env.HOOKPORT_DATABASE_URL;
if (options.includes('--trace'))
  traceSlowStatements(20, (line) => process.stderr.write(`${line}\n`));
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const forward = (line: string): void => {
  if (/^\[(retention|search)\]/.test(line)) process.send?.({ log: line });
};
const log: Logger = {
  info: forward,
  warn: (line) => {
    forward(line);
    process.stderr.write(`${line}\n`);
  },
  error: (line) => {
    forward(line);
    process.stderr.write(`${line}\n`);
  },
};
const core = await startCore({
  dataDir,
  ingress: { host: '127.0.0.1', port: 0 },
  admin: { port: 0 },
  adminTokenFromEnv: undefined,
  masterKeyFromEnv: process.env.HOOKPORT_MASTER_KEY,
  databaseUrl,
  secretBackend: 'file',
  log,
  limits: { deliveriesPerMinute: 1e9, webhooksPerFactory: 1000 },
});
const readyMs = performance.now();
async function senderWebhook(): Promise<{ url: string; secret: string }> {
  if (options.includes('--join')) {
    const found = await core.store.webhooks.findByName('default', 'sender');
    if (!found) throw new Error('--join: no webhook "sender" in the shared database');
    return { url: `${core.ingressListenUrl}/webhooks/w/${found.uid}`, secret: '' };
  }
  const created = await core.service['webhooks.create'](
    { factory: 'default', name: 'sender', authMode: 'token' },
    { role: 'manage' },
  );
  return { url: created.ingressUrl, secret: created.secret! };
}
const sender = await senderWebhook();
const info: ScaleRelayInfo = {
  ingressUrl: core.ingressListenUrl,
  adminUrl: core.adminUrl!,
  adminToken: core.adminToken.value,
  senderUrl: sender.url,
  senderSecret: sender.secret,
  readyMs,
};
process.stdout.write(`${JSON.stringify(info)}\n`);

process.on('message', (message) => {
  if (message === 'pending') {
    void core.store.metrics.searchPending().then((pending) => process.send?.({ pending }));
  }
  if (message === 'loop') {
    process.send?.({ loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6 });
    loop.reset();
  }
});
process.once('SIGTERM', () => {
  void core.stop().then(() => process.exit(0));
});
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
