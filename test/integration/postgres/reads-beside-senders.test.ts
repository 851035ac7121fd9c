import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/open-store.js';
import { usePostgres } from '../../support/postgres.js';
import { connectStdio, postMcp, type McpConnection } from '../../support/mcp-client.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

/** More reads than the relay's pool has connections (10). */
const STUCK_READS = 30;

/**
 * A management read can wait on the database for seconds (a common text's first count at a
 * week's scale), and a `view` token or the UI can ask for many at once: a sender's 202 must not
 * wait for them.
 */
describe('management reads beside the senders (PostgreSQL)', () => {
  const postgres = usePostgres();

  /**
   * A relay on a fresh database, a session to hold locks with (`holder`), and how many sessions
   * match `where` in pg_stat_activity, read from another (a transaction reads it once).
   */
  async function relayBesideLocks() {
    const { url } = await postgres.database();
    const relay = await startTestRelay({
      openStore: (context) =>
        openStore({ ...context, databaseUrl: url, masterKeyFromEnv: 'c3'.repeat(32) }),
    });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    const sessions = async (where: string): Promise<number> =>
      Number(
        (
          await watcher.query<{ n: string }>(
            `SELECT count(*) AS n FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid() AND ${where}`,
          )
        ).rows[0]!.n,
      );
    /**
     * What `ask` answers, asked while the search's count statement waits on a lock (as a long
     * count runs) and left once it waits: the statement must be gone within 3 s.
     */
    const leftWhileCounting = async <T>(ask: (leave: AbortSignal) => Promise<T>): Promise<T> => {
      const counting = (): Promise<number> =>
        sessions("state = 'active' AND query LIKE '%delivery_counts%'");
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE delivery_counts IN ACCESS EXCLUSIVE MODE');
      const leave = new AbortController();
      const asked = ask(leave.signal);
      await waitFor(async () => (await counting()) === 1, 'the count running');
      leave.abort();
      const answer = await asked;
      await waitFor(async () => (await counting()) === 0, 'the count stopped', {
        timeoutMs: 3_000,
      });
      await holder.query('ROLLBACK');
      return answer;
    };
    const close = async (): Promise<void> => {
      await holder.end().catch(() => undefined);
      await watcher.end();
      await relay.stop();
    };
    return { relay, holder, sessions, leftWhileCounting, close };
  }

  it('answers a sender while every pooled connection waits on a slow read', async () => {
    const { relay, holder, sessions, close } = await relayBesideLocks();
    const waitingOnLock = (): Promise<number> => sessions("wait_event_type = 'Lock'");
    try {
      const created = await relay.createWebhook({ name: 'busy' });
      const uid = created.webhook.uid;
      const first = await postDelivery(created.ingressUrl, '{"n":0}', bearer(created.secret));
      expect(first.status).toBe(202);

      // Every read of the webhook's alarm settings waits for this lock, on a connection of its own.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE webhook_alarm_settings IN ACCESS EXCLUSIVE MODE');
      const stuck = Array.from({ length: STUCK_READS }, () =>
        relay.api('GET', `/api/webhooks/${uid}/alarms`),
      );
      await waitFor(async () => (await waitingOnLock()) >= 10, 'the pool taken by reads');

      const sent = postDelivery(created.ingressUrl, '{"n":1}', bearer(created.secret));
      const answered = await Promise.race([
        sent,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
      ]);
      expect(answered?.status).toBe(202);

      await holder.query('ROLLBACK');
      for (const read of await Promise.all(stuck)) expect(read.status).toBe(200);
      await sent;
    } finally {
      await close();
    }
  });

  it("stops a search's first count on the database once its asker closes the request", async () => {
    const { relay, leftWhileCounting, close } = await relayBesideLocks();
    try {
      const created = await relay.createWebhook({ name: 'searched' });
      const uid = created.webhook.uid;
      for (const city of ['Tromsø', 'Oslo', 'TROMSØ']) {
        const body = JSON.stringify({ city });
        expect((await postDelivery(created.ingressUrl, body, bearer(created.secret))).status).toBe(
          202,
        );
      }
      const countUrl = `${relay.adminUrl}/api/webhooks/${uid}/deliveries/count?q=troms%C3%B8`;
      const headers = { authorization: `Bearer ${relay.adminToken}` };

      const asked = leftWhileCounting((signal) =>
        fetch(countUrl, { headers, signal }).catch(() => 'closed'),
      );
      expect(await asked).toBe('closed');
      const answer = await fetch(countUrl, { headers });
      expect(await answer.json()).toEqual({ total: 2 });
      expect(relay.logs.filter((line) => line.includes('[admin]'))).toEqual([]);
    } finally {
      await close();
    }
  });

  /** An MCP client asking `search_deliveries` for `q`, which it can leave while it is read. */
  type McpAsk = (q: string, leave?: AbortSignal) => Promise<number | 'left'>;
  const overHttp =
    (relay: TestRelay): McpAsk =>
    async (q, leave) => {
      const response = await postMcp(
        relay.adminUrl,
        relay.adminToken,
        { method: 'tools/call', params: { name: 'search_deliveries', arguments: { q } } },
        leave,
      ).catch(() => null);
      if (response === null) return 'left';
      const answer = (await response.json()) as {
        result: { structuredContent: { total: number } };
      };
      return answer.result.structuredContent.total;
    };
  const overStdio =
    (mcp: McpConnection): McpAsk =>
    async (q, leave) => {
      const answer = await mcp.client
        .callTool(
          { name: 'search_deliveries', arguments: { q } },
          undefined,
          leave ? { signal: leave } : {},
        )
        .catch(() => null);
      if (answer === null) return 'left';
      return (answer.structuredContent as { total: number }).total;
    };

  it.each([
    ['disconnects from /mcp', 'http'],
    ['cancels through `hookport mcp`', 'stdio'],
  ] as const)(
    "stops a search's first count once the MCP client that asked %s",
    { timeout: 90_000 },
    async (_, kind) => {
      const { relay, leftWhileCounting, close } = await relayBesideLocks();
      const mcp = kind === 'stdio' ? await connectStdio(relay.adminUrl, relay.adminToken) : null;
      try {
        const ask = mcp ? overStdio(mcp) : overHttp(relay);
        const created = await relay.createWebhook({ name: 'asked' });
        for (const city of ['Tromsø', 'Oslo']) {
          const body = JSON.stringify({ city });
          const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
          expect(sent.status).toBe(202);
        }

        expect(await leftWhileCounting((leave) => ask('tromsø', leave))).toBe('left');
        expect(await ask('tromsø')).toBe(1);
        expect(relay.logs.filter((line) => /\[(mcp|admin)\]/.test(line))).toEqual([]);
        expect(mcp?.stderr() ?? '').toBe('');
      } finally {
        await mcp?.close();
        await close();
      }
    },
  );
});
