import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, linkGitHub, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

const TOKEN = 'ghp_standin_token_once_stores';
const HOOK_SECRET = 'hook-secret-once-stores-0123456789';

/**
 * One recovery at a time per link, and no provider delivery asked for twice, on each store:
 * recoveries started together (Recover now pressed twice, the 15-minute timer, a wake) ask
 * GitHub for each failed delivery once, and a restart asks for nothing more.
 */
describe.each(storeKinds)('recoveries of one link started together (%s)', (storeKind) => {
  let github: GitHubStandin;
  let relay: TestRelay;
  beforeAll(async () => {
    github = await new GitHubStandin(TOKEN).start();
    relay = await linkedRelay(storeConfig(storeKind));
  });
  afterAll(async () => {
    await relay.stop();
    await github.stop();
  });

  it('ask for each failed delivery once', async () => {
    await storeToken(relay, 'github-token', TOKEN);
    await goPublic(relay);
    const { webhook } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    const linked = await linkGitHub(relay, webhook.uid, github, hook);
    expect(linked.status).toBe(200);
    const failed = [];
    for (let n = 1; n <= 4; n++)
      failed.push(await github.send(hook, 'push', { n }, { relayAsleep: true }));

    const answers = await Promise.all([
      relay.call('links.recover', { uid: webhook.uid }),
      relay.call('links.recover', { uid: webhook.uid }),
      relay.core.links.recoverAll(),
    ]);
    await github.server.idle();
    const asked = github.redeliveryRequests;
    expect([...asked].sort()).toEqual(failed.map((d) => String(d.id)).sort());
    // Whichever ran first asked for all four; those queued behind it found nothing left.
    const counts = answers
      .slice(0, 2)
      .map((a) => (a as { recovery: { asked: number } }).recovery.asked);
    expect(counts[0]! + counts[1]!).toBeLessThanOrEqual(4);
  });
});
