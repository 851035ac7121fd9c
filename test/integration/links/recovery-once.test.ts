import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { openPostgresStore } from '../../../src/main/store/postgres/postgres-store.js';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import {
  deliveriesOf,
  goPublic,
  linkedRelay,
  linkGitHub,
  storeToken,
} from '../../support/links.js';
import { usePostgres } from '../../support/postgres.js';
import { freeLoopbackPort } from '../../../src/main/tunnels/free-port.js';
import { tempDir, type TestRelay } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_once';
const HOOK_SECRET = 'hook-secret-once-0123456789abcdef';
const MASTER_KEY = 'b2'.repeat(32);

describe('one recovery per link, never asking twice', () => {
  const postgres = usePostgres();
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('two relays on one PostgreSQL database recover a link once', async () => {
    const github = await new GitHubStandin(TOKEN).start();
    cleanups.push(() => github.stop());
    const { url } = await postgres.database();
    const start = async (): Promise<TestRelay> => {
      const relay = await linkedRelay({
        openStore: ({ log }) =>
          openPostgresStore(url, { masterKey: MASTER_KEY, dedupeWindowMs: DEDUPE_WINDOW_MS, log }),
        adminTokenFromEnv: 'shared-admin-token-for-both-relays',
      });
      cleanups.push(() => relay.stop());
      return relay;
    };
    const a = await start();
    const b = await start();
    await storeToken(a, 'github-token', TOKEN);
    await goPublic(a);
    const { webhook, ingressUrl } = await a.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', ingressUrl, HOOK_SECRET);
    const linked = await linkGitHub(a, webhook.uid, github, hook);
    expect(linked.status).toBe(200);
    const failed = [];
    for (let n = 1; n <= 5; n++)
      failed.push(await github.send(hook, 'push', { n }, { relayAsleep: true }));

    const recover = (relay: TestRelay) => relay.call('links.recover', { uid: webhook.uid });
    const answers = await Promise.all([recover(a), recover(b), recover(a), recover(b)]);
    expect(answers.map((answer) => answer.kind)).toEqual(['github', 'github', 'github', 'github']);
    await github.server.idle();

    expect([...github.redeliveryRequests].sort()).toEqual(failed.map((d) => String(d.id)).sort());
    const entries = await deliveriesOf(b, webhook.uid);
    expect(entries.filter((d) => d.label === 'Accepted' && d.recovered)).toHaveLength(5);
  });

  it.each(['SQLite', 'PostgreSQL'] as const)(
    'a relay killed mid-recovery resumes without asking twice (%s)',
    async (store) => {
      const github = await new GitHubStandin(TOKEN).start();
      cleanups.push(() => github.stop());
      const dataDir = tempDir('hookport-links-');
      cleanups.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
      const port = await freeLoopbackPort();
      const publicUrl = `http://relay.example.test:${port}`;
      // On PostgreSQL the restarted relay finds its claims in the database, not in its data dir.
      const onStore: { env: Record<string, string>; args: string[] } =
        store === 'PostgreSQL'
          ? {
              env: { HOOKPORT_MASTER_KEY: randomBytes(32).toString('hex') },
              args: ['--database', (await postgres.database()).url],
            }
          : { env: {}, args: [] };
      const serve = async (): Promise<ChildRelay> => {
        const relay = await spawnServe(dataDir, onStore.env, {
          args: ['--ingress-port', String(port), '--public-url', publicUrl, ...onStore.args],
        });
        cleanups.push(async () => {
          relay.child.kill('SIGKILL');
          await relay.exited;
        });
        return relay;
      };
      let relay = await serve();
      const api = (method: string, path: string, body?: unknown) =>
        childApi(relay, method, path, body);
      expect(
        (await api('POST', '/api/secrets', { name: 'github-token', value: TOKEN })).status,
      ).toBe(201);
      const created = (
        await api('POST', '/api/webhooks', {
          name: 'gh',
          authMode: 'signature',
          signatureScheme: 'github',
          secret: HOOK_SECRET,
        })
      ).body as { webhook: { uid: string }; ingressUrl: string };
      const uid = created.webhook.uid;
      const hook = github.addHook('acme/api', created.ingressUrl, HOOK_SECRET);
      const linked = await api('PUT', `/api/webhooks/${uid}/link`, {
        kind: 'github',
        target: `acme/api#${hook.id}`,
        tokenSecretName: 'github-token',
        apiBaseUrl: github.url,
      });
      expect(linked.status).toBe(200);
      const failed = [];
      for (let n = 1; n <= 5; n++)
        failed.push(await github.send(hook, 'push', { n }, { relayAsleep: true }));

      // GitHub stops answering the first request: the relay is killed waiting for it.
      github.server.inject(/\/deliveries\/\d+\/attempts$/, 'hang', 1);
      const attempts = /\/deliveries\/\d+\/attempts$/;
      void api('POST', `/api/webhooks/${uid}/link/recover`, {}).catch(() => undefined);
      const deadline = Date.now() + 20_000;
      while (github.server.requestsTo('POST', attempts).length < 1 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      relay.child.kill('SIGKILL');
      await relay.exited;

      relay = await serve();
      // At start the relay recovers again: what it had claimed is never asked for again.
      const deadline2 = Date.now() + 20_000;
      while (github.server.requestsTo('POST', attempts).length < 5 && Date.now() < deadline2)
        await new Promise((resolve) => setTimeout(resolve, 20));
      if (github.server.requestsTo('POST', attempts).length < 5) console.log(relay.output());
      await github.server.idle();
      const asked = github.redeliveryRequests;
      expect(asked).toHaveLength(new Set(asked).size);
      expect(asked).toHaveLength(5);
      expect(new Set(asked)).toEqual(new Set(failed.map((d) => String(d.id))));
    },
    120_000,
  );
});
