import { afterEach, describe, expect, it } from 'vitest';
import { GitHubStandin, type StandinHook } from '../../support/providers/github-standin.js';
import { goPublic, linkedRelay, putLink, storeToken } from '../../support/links.js';
import type { TestRelay } from '../../support/relay.js';

const TOKEN = 'ghp_standin_token_errors';
const HOOK_SECRET = 'hook-secret-errors-0123456789abcdef';

/** GitHub's errors as its REST description documents them, forced on the stand-in. */
describe("a GitHub link meets GitHub's errors", () => {
  let github: GitHubStandin;
  let relay: TestRelay;
  let uid: string;
  let hook: StandinHook;
  afterEach(async () => {
    await relay.stop();
    await github.stop();
  });

  async function setUp(token = TOKEN) {
    github = await new GitHubStandin(TOKEN).start();
    relay = await linkedRelay();
    await storeToken(relay, 'github-token', token);
    await goPublic(relay);
    const created = await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secret: HOOK_SECRET,
    });
    uid = created.webhook.uid;
    hook = github.addHook('acme/api', created.ingressUrl, HOOK_SECRET);
  }

  const link = (target = `acme/api#${hook.id}`) =>
    putLink(relay, uid, {
      kind: 'github',
      target,
      tokenSecretName: 'github-token',
      apiBaseUrl: github.url,
    });
  const messageOf = (body: unknown) => (body as { error: { message: string } }).error.message;

  it('401: the link is refused, saying the token was refused', async () => {
    await setUp('ghp_wrong_token');
    const answer = await link();
    expect(answer.status).toBe(400);
    expect(messageOf(answer.body)).toBe(
      `GitHub answered 401 for GitHub hook ${hook.id} on acme/api (reading the hook): the token was refused; store a valid token in the link's team secret.`,
    );
    expect(await relay.call('links.get', { uid })).toBeNull();
  });

  it('404: the sentence names the scope the token needs', async () => {
    await setUp();
    const answer = await link('acme/api#999999');
    expect(answer.status).toBe(400);
    expect(messageOf(answer.body)).toContain(
      'GitHub answered 404 for GitHub hook 999999 on acme/api (reading the hook): the token cannot see it; it needs the admin:repo_hook scope',
    );
    const org = await link('org:acme#999999');
    expect(messageOf(org.body)).toContain('admin:org_hook');
  });

  it('a malformed target is refused before GitHub is asked', async () => {
    await setUp();
    const answer = await link('acme-api-123');
    expect(answer.status).toBe(400);
    expect(messageOf(answer.body)).toContain(`"owner/repo#<hook id>" or "org:<org>#<hook id>"`);
    expect(github.server.requests).toEqual([]);
  });

  it('403 with rate-limit headers: waits until the reset, then goes on', async () => {
    await setUp();
    github.server.inject(/\/hooks\/\d+$/, {
      status: 403,
      headers: {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 1),
      },
      body: { message: 'API rate limit exceeded' },
    });
    const answer = await link();
    expect(answer.status).toBe(200);
    expect(github.server.requestsTo('GET', /\/hooks\/\d+$/).length).toBeGreaterThanOrEqual(2);
  });

  it('5xx: retried with backoff; still failing, the recovery reports it', async () => {
    await setUp();
    expect((await link()).status).toBe(200);
    github.server.inject(/\/deliveries$/, { status: 502, body: { message: 'Bad Gateway' } }, 2);
    const retried = await relay.call('links.recover', { uid });
    expect(retried).toMatchObject({ recovery: { errors: [] } });

    github.server.inject(/\/deliveries$/, { status: 503, body: { message: 'Unavailable' } }, 10);
    const failed = await relay.call('links.recover', { uid });
    expect(failed).toMatchObject({
      recovery: {
        errors: [
          `GitHub answered 503 for GitHub hook ${hook.id} on acme/api (listing its deliveries); tried 3 times; the relay tries again at the next check or recovery.`,
        ],
      },
    });
  });

  it('a GitHub that never answers is bounded: the check reports it', async () => {
    await setUp();
    expect((await link()).status).toBe(200);
    github.server.inject(/\/hooks\/\d+$/, 'hang', 10);
    const checked = await relay.call('links.check', { uid });
    expect(checked).toMatchObject({ check: { ok: false, hookUrl: null } });
    expect(checked.check?.problems[0]).toContain('GitHub did not answer within 0.5 s');
  });
});
