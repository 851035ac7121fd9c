import { afterEach, describe, expect, it } from 'vitest';
import { GitHubStandin } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, linkGitHub, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_keep_pointed';
const HOOK_SECRET = 'hook-secret-keep-pointed-0123456789';

describe('keeping a GitHub hook pointed', () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  afterEach(async () => {
    await relay.stop();
    await github.stop();
  });

  async function setUp() {
    github = await new GitHubStandin(TOKEN).start();
    relay = await linkedRelay();
    await storeToken(relay, 'github-token', TOKEN);
    const { webhook } = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    return webhook;
  }

  it('never points the hook at 127.0.0.1: the check says to set a public URL', async () => {
    const webhook = await setUp();
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    const linked = await linkGitHub(relay, webhook.uid, github, hook);
    expect(linked.status).toBe(200);
    expect(hook.config.url).toBe('https://old.example.test/hook');
    expect(linked.body.check?.ok).toBe(false);
    expect(linked.body.check?.problems.join(' ')).toContain('set a public URL or start a tunnel');
  });

  it('follows a new public URL, changing only the URL, and checks again', async () => {
    const webhook = await setUp();
    const first = await goPublic(relay, 'relay-a.example.test');
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    await linkGitHub(relay, webhook.uid, github, hook);
    expect(hook.config.url).toBe(`${first}/webhooks/w/${webhook.uid}`);

    const second = await goPublic(relay, 'relay-b.example.test');
    expect(hook.config.url).toBe(`${second}/webhooks/w/${webhook.uid}`);
    expect(hook.config.secret).toBe(HOOK_SECRET);
    expect(hook.events).toEqual(['push', 'issues']);
    expect(await relay.call('links.get', { uid: webhook.uid })).toMatchObject({
      check: { ok: true, pointsHere: true },
    });
    // The webhook's JSON carries its link.
    expect(await relay.call('webhooks.get', { uid: webhook.uid })).toMatchObject({
      link: { kind: 'github', check: { ok: true } },
    });
  });

  it('reports a hook a person set inactive and leaves it as it is', async () => {
    const webhook = await setUp();
    await goPublic(relay);
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET, {
      active: false,
    });
    const linked = await linkGitHub(relay, webhook.uid, github, hook);
    expect(linked.status).toBe(200);
    expect(linked.body.check).toMatchObject({ ok: false, active: false });
    expect(linked.body.check?.problems.join(' ')).toContain(
      'is set inactive on GitHub: a person turned it off, so the relay leaves it',
    );
    expect(hook.active).toBe(false);
    expect(github.server.requestsTo('PATCH', /./)).toEqual([]);
  });

  it("reports a form-encoded hook and a webhook that checks another provider's signature", async () => {
    await setUp();
    const { webhook } = await relay.createWebhook({ name: 'plain', authMode: 'token' });
    await goPublic(relay);
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    hook.config.content_type = 'form';
    const linked = await linkGitHub(relay, webhook.uid, github, hook);
    const problems = linked.body.check?.problems.join(' ') ?? '';
    expect(problems).toContain('set its content type to application/json');
    expect(problems).toContain('use a webhook with the github signature scheme');
  });

  it('Check now points back a hook someone moved elsewhere (keep pointed on)', async () => {
    const webhook = await setUp();
    const publicUrl = await goPublic(relay);
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', HOOK_SECRET);
    await linkGitHub(relay, webhook.uid, github, hook);
    hook.config.url = 'https://someone-else.example.test/hook';
    const checked = await relay.call('links.check', { uid: webhook.uid });
    expect(hook.config.url).toBe(`${publicUrl}/webhooks/w/${webhook.uid}`);
    expect(hook.config.secret).toBe(HOOK_SECRET);
    expect(checked.check).toMatchObject({ ok: true, pointsHere: true });
  });

  it('follows a rotated URL token: the hook gets the URL that carries the new token', async () => {
    github = await new GitHubStandin(TOKEN).start();
    relay = await linkedRelay();
    await storeToken(relay, 'github-token', TOKEN);
    const publicUrl = await goPublic(relay);
    const created = await relay.call('webhooks.create', { name: 'gh-url', authMode: 'url_token' });
    const uid = created.webhook.uid;
    const hook = github.addHook('acme/api', 'https://old.example.test/hook', '');
    await linkGitHub(relay, uid, github, hook);
    expect(hook.config.url).toBe(`${publicUrl}/webhooks/w/${uid}/${created.secret}`);

    const rotated = await relay.call('webhooks.rotate', { uid });
    await relay.core.links.idle();
    expect(hook.config.url).toBe(`${publicUrl}/webhooks/w/${uid}/${rotated.secret}`);
    expect(rotated.secret).not.toBe(created.secret);
  });
});
