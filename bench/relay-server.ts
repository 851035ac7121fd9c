/**
 * The relay for the relay-level benchmarks, in a child process of its own: startCore on a fresh
 * data dir, one Bearer-token webhook, and one JSON line on stdout with what the load generator
 * needs. Only benchmarks raise the limits: pass `raised` for the accept path, `default` for the
 * 429 path. Options after those two:
 *   no-search  drops the log search's cost, to price it: on SQLite the trigger that queues
 *              entries for the indexer; on PostgreSQL the two GIN indexes, with new rows born
 *              indexed so that nothing is queued and the indexers idle (ingress/without-search.ts);
 *   join       another relay on the same PostgreSQL database created the webhook: use it.
 *   github     the webhook checks GitHub's signature (X-Hub-Signature-256) instead of a token;
 *              `secret` is its signing secret.
 * With HOOKPORT_DATABASE_URL (and HOOKPORT_MASTER_KEY) in the environment the relay runs on
 * PostgreSQL, as `hookport serve` does; otherwise on SQLite in the data dir.
 *   (bundled by bench/ingress/processes.ts) relay-server.mjs <data-dir> raised|default [no-search] [join]
 * Answers an IPC message `"rss"` with its resident set size and `"pending"` with the entries
 * still waiting for the search indexer (on PostgreSQL: every relay's, the shared queue);
 * SIGTERM stops it cleanly.
 */
import { randomBytes } from 'node:crypto';
import { startCore } from '../src/main/core.js';
import { consoleLogger } from '../src/main/log.js';
import { isSqliteStore } from '../src/main/store/sqlite/sqlite-store.js';
import { POSTGRES_WITHOUT_SEARCH } from './ingress/without-search.js';

export interface BenchRelayInfo {
  ingressUrl: string;
  webhookUrl: string;
  /** The webhook's Bearer token; null for a relay that joined (the creator printed it). */
  secret: string | null;
  /** A well-formed UID that no webhook has: the 404 path. */
  unknownWebhookUrl: string;
}

const [dataDir, limitsArg, ...options] = process.argv.slice(2);
if (!dataDir)
  throw new Error('usage: relay-server.ts <data-dir> raised|default [no-search] [join]');
const databaseUrl = process.env.HOOKPORT_DATABASE_URL;

const core = await startCore({
  dataDir,
  ingress: { host: '127.0.0.1', port: 0 },
  admin: { port: 0 },
  adminTokenFromEnv: undefined,
  databaseUrl,
  masterKeyFromEnv: process.env.HOOKPORT_MASTER_KEY,
  // serve logs one line per delivery; so does the benchmarked relay (stdout is drained).
  log: consoleLogger,
  limits: limitsArg === 'default' ? {} : { deliveriesPerMinute: 1e9, webhooksPerFactory: 1000 },
});
const store = core.store;
if (options.includes('no-search')) {
  if (isSqliteStore(store)) store.db.exec('DROP TRIGGER deliveries_search_queue');
  else {
    // Loaded only here: a SQLite relay never loads the driver, and neither does this one.
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(POSTGRES_WITHOUT_SEARCH);
    await client.end();
  }
}

async function webhook(): Promise<{ url: string; secret: string | null }> {
  if (options.includes('join')) {
    const found = await store.webhooks.findByName('default', 'bench');
    if (!found) throw new Error('join: no webhook "bench" in the shared database');
    return { url: `${core.ingressListenUrl}/webhooks/w/${found.uid}`, secret: null };
  }
  if (options.includes('github')) {
    const signing = randomBytes(24).toString('base64url');
    const created = await core.service['webhooks.create'](
      {
        factory: 'default',
        name: 'bench',
        authMode: 'signature',
        signatureScheme: 'github',
        secret: signing,
      },
      { role: 'manage' },
    );
    return { url: created.ingressUrl, secret: signing };
  }
  const created = await core.service['webhooks.create'](
    { factory: 'default', name: 'bench', authMode: 'token' },
    { role: 'manage' },
  );
  return { url: created.ingressUrl, secret: created.secret! };
}
const { url, secret } = await webhook();
const info: BenchRelayInfo = {
  ingressUrl: core.ingressListenUrl,
  webhookUrl: url,
  secret,
  unknownWebhookUrl: `${core.ingressListenUrl}/webhooks/w/wh_${'0'.repeat(24)}`,
};
process.stdout.write(`${JSON.stringify(info)}\n`);

process.on('message', (message) => {
  if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  if (message === 'pending') {
    void store.metrics.searchPending().then((pending) => process.send?.({ pending }));
  }
});
process.once('SIGTERM', () => {
  void core.stop().then(() => process.exit(0));
});
// The benchmark that started this relay is gone (killed): no relay outlives it.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
