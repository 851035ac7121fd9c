/**
 * The relay for the ingress benchmark, in a child process of its own: startCore on a fresh data
 * dir, one Bearer-token webhook, and one JSON line on stdout with what the load generator needs.
 * Only benchmarks raise the limits: pass `raised` for (c), `default` for the 429 path of (d).
 * `no-search` drops the trigger that queues entries for the search index: the accept path as it
 * was before the index existed, for the comparison in the ingress suite.
 *   (bundled by bench/ingress/processes.ts) relay-server.mjs <data-dir> raised|default [no-search]
 * Answers an IPC message `"rss"` with its resident set size and `"pending"` with the entries
 * still waiting for the search indexer; SIGTERM stops it cleanly.
 */
import { startCore } from '../src/main/core.js';
import { consoleLogger } from '../src/main/log.js';
import { sqliteDbOf } from '../src/main/store/sqlite-store.js';

export interface BenchRelayInfo {
  ingressUrl: string;
  webhookUrl: string;
  secret: string;
  /** A well-formed UID that no webhook has: the 404 path. */
  unknownWebhookUrl: string;
}

const [dataDir, limitsArg, searchArg] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: relay-server.ts <data-dir> raised|default');

const core = await startCore({
  dataDir,
  ingress: { host: '127.0.0.1', port: 0 },
  admin: { port: 0 },
  adminTokenFromEnv: undefined,
  masterKeyFromEnv: undefined,
  // serve logs one line per delivery; so does the benchmarked relay (stdout is drained).
  log: consoleLogger,
  limits: limitsArg === 'default' ? {} : { deliveriesPerMinute: 1e9, webhooksPerFactory: 1000 },
});
if (searchArg === 'no-search') sqliteDbOf(core.store).exec('DROP TRIGGER deliveries_search_queue');
const pendingStatement = sqliteDbOf(core.store).prepare<[], { n: number }>(
  'SELECT count(*) AS n FROM delivery_search_pending',
);
const countPending = (): number => pendingStatement.get()!.n;
const created = await core.service['webhooks.create'](
  { factory: 'default', name: 'bench', authMode: 'token' },
  { role: 'manage' },
);
const info: BenchRelayInfo = {
  ingressUrl: core.ingressListenUrl,
  webhookUrl: created.ingressUrl,
  secret: created.secret!,
  unknownWebhookUrl: `${core.ingressListenUrl}/webhooks/w/wh_${'0'.repeat(24)}`,
};
process.stdout.write(`${JSON.stringify(info)}\n`);

process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'pending') process.send?.({ pending: countPending() });
});
process.once('SIGTERM', () => {
  void core.stop().then(() => process.exit(0));
});
// The benchmark that started this relay is gone (killed): no relay outlives it.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
