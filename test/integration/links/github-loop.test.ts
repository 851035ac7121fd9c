import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  listRuns,
  setExecutor,
  webhookTrigger,
} from '../../support/automations.js';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { deliveriesOf, goPublic, linkedRelay, putLink, storeToken } from '../../support/links.js';
import { tempDir } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_1234567890';
const HOOK_SECRET = 'hook-secret-for-github-0123456789';

describe('a webhook linked to a GitHub repository hook', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const github = await new GitHubStandin(TOKEN).start();
    cleanups.push(() => github.stop());
    const dataDir = tempDir();
    cleanups.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
    let relay = await linkedRelay({ dataDir });
    const port = Number(new URL(relay.ingressUrl).port);
    const publicUrl = await goPublic(relay);
    await storeToken(relay, 'github-token', TOKEN);
    await setExecutor(relay, { kind: 'record' });
    const { webhook } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    await createAutomation(relay, {
      name: 'every-event',
      triggers: [webhookTrigger([webhook.uid])],
    });
    // The hook still holds the URL of a tunnel that is gone: GitHub's deliveries fail.
    const hook = github.addHook(
      'acme/api',
      'http://old-tunnel.example.test:1/webhooks/w/x',
      HOOK_SECRET,
    );
    const restart = async () => {
      await relay.stop();
      relay = await linkedRelay({ dataDir, ingress: { host: '127.0.0.1', port } });
      return relay;
    };
    cleanups.push(async () => {
      await relay.stop();
    });
    return { github, hook, webhook, publicUrl, relay: () => relay, restart };
  }

  it('recovers what failed while the URL was stale and the relay stopped, once, marked recovered', async () => {
    const { github, hook, webhook, publicUrl, relay, restart } = await setUp();
    const stale = await github.send(hook, 'issues', { action: 'opened', n: 1 });
    expect(stale.statusCode).toBe(0);

    const linked = await putLink(relay(), webhook.uid, {
      kind: 'github',
      target: 'acme/api#' + hook.id,
      tokenSecretName: 'github-token',
      apiBaseUrl: github.url,
    });
    expect(linked.status).toBe(200);
    // Keep pointed: only the URL was sent, so GitHub keeps the hook's secret.
    expect(hook.config.url).toBe(`${publicUrl}/webhooks/w/${webhook.uid}`);
    expect(hook.config.secret).toBe(HOOK_SECRET);
    expect(github.server.requestsTo('PATCH', /\/config$/).map((r) => r.body)).toEqual([
      { url: hook.config.url },
    ]);
    expect(linked.body.check).toMatchObject({
      ok: true,
      pointsHere: true,
      active: true,
      problems: [],
    });

    const live = await github.send(hook, 'issues', { action: 'opened', n: 2 });
    expect(live.statusCode).toBe(202);
    // Accepted here, but GitHub timed out waiting and recorded it failed: never asked for.
    const slow = await github.send(
      hook,
      'issues',
      { action: 'opened', n: 3 },
      { recordAsFailed: true },
    );

    await relay().stop();
    const whileStopped = [];
    for (let n = 4; n <= 8; n++) whileStopped.push(await github.send(hook, 'push', { n }));
    expect(whileStopped.every((d) => d.statusCode === 0)).toBe(true);

    const restarted = await restart();
    await restarted.core.links.idle();
    await github.server.idle();

    const wanted = [stale, ...whileStopped].map((d) => String(d.id));
    expect([...github.redeliveryRequests].sort()).toEqual([...wanted].sort());
    expect(github.redeliveryRequests).not.toContain(String(slow.id));

    const entries = await deliveriesOf(restarted, webhook.uid);
    const accepted = entries.filter((d) => d.label === 'Accepted');
    expect(accepted).toHaveLength(8);
    const recovered = accepted.filter((d) => d.recovered);
    expect(recovered.map((d) => d.identity).sort()).toEqual(
      [stale, ...whileStopped].map((d) => d.guid).sort(),
    );
    expect(entries.filter((d) => d.label === 'Duplicate')).toHaveLength(0);
    const runs = (await listRuns(restarted, `?webhook=${webhook.uid}`)).items;
    for (const entry of accepted) {
      expect(runs.filter((r) => r.deliveryId === entry.id)).toHaveLength(1);
    }

    const link = await restarted.call('links.get', { uid: webhook.uid });
    expect(link?.recovery).toMatchObject({
      asked: 6,
      redelivered: 6,
      alreadyHere: 1,
      failed: 0,
      arrived: 6,
      errors: [],
    });

    // A second recovery asks for nothing: it lists what failed since the first one began.
    const again = await restarted.call('links.recover', { uid: webhook.uid });
    expect(again).toMatchObject({ recovery: { asked: 0, errors: [] } });
    expect(github.redeliveryRequests).toHaveLength(6);

    // And a second start asks for nothing either.
    const third = await restart();
    await third.core.links.idle();
    expect(github.redeliveryRequests).toHaveLength(6);
  });
});
