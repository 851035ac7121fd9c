import { afterEach, describe, expect, it } from 'vitest';
import { listRuns } from '../../support/automations.js';
import { GitLabStandin } from '../../support/providers/gitlab-standin.js';
import { deliveriesOf, FAST_TIMING } from '../../support/links.js';
import { startLinkedWebhook } from '../../support/linked-webhook.js';

/** No provider silence is tested here: a loaded machine must not turn a slow answer into one. */
const PATIENT = { ...FAST_TIMING, requestTimeoutMs: 10_000 };
const TOKEN = 'glpat-standin-token-1234567890';
const HOOK_TOKEN = 'gitlab-hook-secret-token-0123456789';

describe('a webhook linked to a GitLab project hook', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const gitlab = await new GitLabStandin(TOKEN).start();
    cleanups.push(() => gitlab.stop());
    const linked = await startLinkedWebhook(cleanups, {
      name: 'gl',
      scheme: 'gitlab',
      secret: HOOK_TOKEN,
      tokenSecretName: 'gitlab-token',
      token: TOKEN,
      timing: PATIENT,
    });
    const hook = gitlab.addHook('acme/api', 'http://old-tunnel.example.test:1/hook', HOOK_TOKEN);
    const link = (target = `acme%2Fapi#${hook.id}`) =>
      linked.link({ kind: 'gitlab', target, apiBaseUrl: gitlab.apiBaseUrl });
    return { ...linked, gitlab, hook, link };
  }

  it('recovers what failed while the URL was stale and the relay stopped, once, marked recovered', async () => {
    const { gitlab, hook, webhook, publicUrl, relay, restart, link } = await setUp();
    const stale = await gitlab.send(hook, 'Issue Hook', { object_kind: 'issue', n: 1 });
    expect(stale?.statusCode).toBe(0);

    const linked = await link();
    expect(linked.status).toBe(200);
    expect(hook.url).toBe(`${publicUrl}/webhooks/w/${webhook.uid}`);
    // Only the URL was sent: the hook keeps its secret token.
    expect(hook.token).toBe(HOOK_TOKEN);
    expect(gitlab.server.requestsTo('PUT', /\/hooks\/\d+$/).map((r) => r.body)).toEqual([
      { url: hook.url },
    ]);
    expect(linked.body.check).toMatchObject({ ok: true, pointsHere: true, active: true });

    const live = await gitlab.send(hook, 'Push Hook', { object_kind: 'push', n: 2 });
    expect(live?.statusCode).toBe(202);

    await relay().stop();
    const whileStopped = [];
    for (let n = 3; n <= 5; n++) {
      whileStopped.push((await gitlab.send(hook, 'Push Hook', { object_kind: 'push', n }))!);
    }
    expect(whileStopped.every((e) => e.statusCode === 0)).toBe(true);

    const restarted = await restart();
    await restarted.core.links.idle();
    await gitlab.server.idle();

    const wanted = [stale!, ...whileStopped].map((e) => String(e.id));
    expect([...gitlab.resendRequests].sort()).toEqual([...wanted].sort());

    const entries = await deliveriesOf(restarted, webhook.uid);
    const accepted = entries.filter((d) => d.label === 'Accepted');
    expect(accepted).toHaveLength(5);
    // The identity is GitLab's Idempotency-Key, kept across a resend.
    expect(
      accepted
        .filter((d) => d.recovered)
        .map((d) => d.identity)
        .sort(),
    ).toEqual([stale!, ...whileStopped].map((e) => e.idempotencyKey).sort());
    expect(entries.filter((d) => d.label === 'Duplicate')).toHaveLength(0);
    const runs = (await listRuns(restarted, `?webhook=${webhook.uid}`)).items;
    for (const entry of accepted) {
      expect(runs.filter((r) => r.deliveryId === entry.id)).toHaveLength(1);
    }
    const shown = await restarted.call('links.get', { uid: webhook.uid });
    expect(shown?.recovery).toMatchObject({ asked: 4, redelivered: 4, arrived: 4, errors: [] });

    const again = await restarted.call('links.recover', { uid: webhook.uid });
    expect(again).toMatchObject({ recovery: { asked: 0, errors: [] } });
    const third = await restart();
    await third.core.links.idle();
    expect(gitlab.resendRequests).toHaveLength(4);
  });

  it('enables a hook GitLab disabled after four failures, by resending its newest failed event', async () => {
    const { gitlab, hook, webhook, relay, link } = await setUp();
    for (let n = 1; n <= 4; n++) await gitlab.send(hook, 'Push Hook', { object_kind: 'push', n });
    expect(hook.alertStatus).toBe('temporarily_disabled');
    // Disabled: GitLab sends nothing and records nothing.
    expect(await gitlab.send(hook, 'Push Hook', { object_kind: 'push', n: 5 })).toBeNull();

    const linked = await link(`${hook.projectId}#${hook.id}`);
    expect(linked.status).toBe(200);
    await relay().core.links.idle();
    await gitlab.server.idle();
    expect(hook.alertStatus).toBe('executable');
    expect(hook.url).toContain(`/webhooks/w/${webhook.uid}`);
    const checked = await relay().call('links.check', { uid: webhook.uid });
    expect(checked).toMatchObject({ check: { ok: true, active: true } });
    // The other three failed events are what a recovery asks for; none is asked for twice.
    await relay().call('links.recover', { uid: webhook.uid });
    await gitlab.server.idle();
    expect(new Set(gitlab.resendRequests).size).toBe(gitlab.resendRequests.length);
    expect(gitlab.resendRequests).toHaveLength(4);
    const accepted = (await deliveriesOf(relay(), webhook.uid)).filter(
      (d) => d.label === 'Accepted',
    );
    expect(accepted).toHaveLength(4);
  });

  it('names the token scope when GitLab cannot see the hook', async () => {
    const { webhook, link } = await setUp();
    const linked = await link('acme%2Fapi#999');
    expect(linked.status).toBe(400);
    expect(linked.body.error?.message).toContain(
      'GitLab answered 404 for GitLab hook 999 on acme/api',
    );
    expect(linked.body.error?.message).toContain('api scope');
    expect(webhook.uid).toMatch(/^wh_/);
  });
});
