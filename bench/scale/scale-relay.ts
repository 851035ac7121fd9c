/**
 * The relay of the scale benchmark, in a child process of its own (bundled by
 * bench/ingress/processes.ts): `startCore` on a data dir the benchmark seeded (or an empty one),
 * the limits raised, and one JSON line on stdout once it listens, with how long it took to get
 * there. A webhook "sender" (Bearer token) takes the paced genuine sender's deliveries.
 *   scale-relay.mjs <data-dir> [--trace]   (--trace: slow-statements.ts, on stderr)
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

const [dataDir, trace] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: scale-relay.ts <data-dir> [--trace]');
if (trace === '--trace') traceSlowStatements(20, (line) => process.stderr.write(`${line}\n`));
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
  masterKeyFromEnv: undefined,
  secretBackend: 'file',
  log,
  limits: { deliveriesPerMinute: 1e9, webhooksPerFactory: 1000 },
});
const readyMs = performance.now();
const sender = await core.service['webhooks.create'](
  { factory: 'default', name: 'sender', authMode: 'token' },
  { role: 'manage' },
);
const info: ScaleRelayInfo = {
  ingressUrl: core.ingressListenUrl,
  adminUrl: core.adminUrl!,
  adminToken: core.adminToken.value,
  senderUrl: sender.ingressUrl,
  senderSecret: sender.secret!,
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
