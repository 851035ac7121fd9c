import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../src/main/cli/admin-client.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { webhookTrigger } from '../../support/automations.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';

type Trigger = MethodInput<'automations.filterMatches'>['trigger'];

const ACTIONS = ['opened', 'closed', 'edited'] as const;

/** The n-th of the 50 hand-built pull request deliveries. */
const pullRequest = (n: number) => ({
  action: ACTIONS[n % 3],
  number: n,
  pull_request: { draft: n % 5 === 0, title: `PR ${n}` },
  labels: [{ name: n % 2 === 0 ? 'ui' : 'bug' }],
  ...(n % 10 === 0 ? { hotfix: true } : {}),
});

/**
 * PRODUCT.md §15: the filter lab counts a trigger's matches among the newest stored Accepted
 * deliveries of its webhooks. The expected counts are worked out by hand from the data above.
 */
describe('the filter lab', () => {
  let relay: TestRelay;
  let prs: CreatedWebhook;
  let other: CreatedWebhook;
  const ids: string[] = [];
  beforeAll(async () => {
    relay = await startTestRelay();
    prs = await relay.createWebhook({ name: 'pull-requests' });
    other = await relay.createWebhook({ name: 'other' });
    for (let n = 0; n < 50; n++) {
      const sent = await postDelivery(
        prs.ingressUrl,
        JSON.stringify(pullRequest(n)),
        bearer(prs.secret),
      );
      ids.push(sent.body.delivery_id!);
    }
    // Neither a duplicate nor a rejected entry has a payload to test.
    await postDelivery(prs.ingressUrl, JSON.stringify(pullRequest(49)), bearer(prs.secret));
    await postDelivery(prs.ingressUrl, '{"action":"opened"}', bearer('wrong'));
    for (let n = 0; n < 5; n++) {
      await postDelivery(
        other.ingressUrl,
        JSON.stringify({ action: 'opened', n }),
        bearer(other.secret),
      );
    }
  }, 60_000);
  afterAll(() => relay.stop());

  const matches = (trigger: Trigger, limit?: number) =>
    relay.call('automations.filterMatches', limit === undefined ? { trigger } : { trigger, limit });

  it('counts 13 of 50: opened and not a draft (n ≡ 0 mod 3, not ≡ 0 mod 5)', async () => {
    const trigger = webhookTrigger([prs.webhook.uid], {
      action: 'opened',
      pull_request: { draft: false },
    });
    const body = await matches(trigger);
    expect(body.scanned).toBe(50);
    expect(body.matched).toBe(13);
    expect(body.items.map((i) => i.deliveryId)).toEqual([...ids].reverse());
    const byId = new Map(body.items.map((i) => [i.deliveryId, i]));
    expect(byId.get(ids[3]!)).toMatchObject({
      verdict: 'Would trigger',
      detail: null,
      eventType: null,
    });
    expect(byId.get(ids[15]!)).toMatchObject({
      verdict: 'Would not trigger',
      detail: 'pull_request.draft: expected false, got true',
    });
    expect(byId.get(ids[1]!)!.detail).toBe('action: expected "opened", got "closed"');
  });

  it('reads only the newest `limit` deliveries: 5 of the last 20 (n = 33, 36, 39, 42, 48)', async () => {
    const trigger = webhookTrigger([prs.webhook.uid], {
      action: 'opened',
      pull_request: { draft: false },
    });
    const body = await matches(trigger, 20);
    expect(body.scanned).toBe(20);
    expect(body.matched).toBe(5);
    expect(
      body.items.filter((i) => i.verdict === 'Would trigger').map((i) => i.deliveryId),
    ).toEqual([48, 42, 39, 36, 33].map((n) => ids[n]));
  });

  it('looks through arrays and merges several webhooks newest first', async () => {
    const labels = await matches(
      webhookTrigger([prs.webhook.uid], { labels: { name: 'bug' }, hotfix: { exists: false } }),
    );
    // Odd n: 25 of them; none of the odd ones is a hotfix (n ≡ 0 mod 10 is even).
    expect(labels.matched).toBe(25);
    const both = await matches(
      webhookTrigger([other.webhook.uid, prs.webhook.uid], { action: 'opened' }),
    );
    expect(both.scanned).toBe(55);
    // 17 opened pull requests (n ≡ 0 mod 3) and the other webhook's 5.
    expect(both.matched).toBe(22);
    expect(both.items[0]!.webhookUid).toBe(other.webhook.uid);
  });

  it('says a deleted webhook fires no more, is open to view tokens, and checks its input', async () => {
    const gone = await relay.createWebhook({ name: 'gone' });
    await postDelivery(gone.ingressUrl, '{"action":"opened"}', bearer(gone.secret));
    await relay.call('webhooks.delete', { uid: gone.webhook.uid });
    const viewer = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    const asViewer = new AdminClient(relay.adminUrl, viewer.value);
    const body = await asViewer.call('automations.filterMatches', {
      trigger: webhookTrigger([gone.webhook.uid]),
    });
    expect(body).toMatchObject({ scanned: 1, matched: 0 });
    expect(body.items[0]!.detail).toBe(
      'webhook: gone is selected but was deleted: it fires no more',
    );

    const tooMany = await relay.callError('automations.filterMatches', {
      trigger: webhookTrigger([prs.webhook.uid]),
      limit: 1001,
    });
    expect(tooMany).toMatchObject({ code: 'invalid_input', path: 'limit' });
    const badFilter = await relay.callError('automations.filterMatches', {
      trigger: webhookTrigger([prs.webhook.uid], { action: { in: [] } }),
    });
    expect(badFilter.path).toBe('trigger.filter.payload.action.in');
  });

  it('evaluates a header filter against each stored request, and refuses a credential header', async () => {
    const events = await relay.createWebhook({ name: 'events' });
    for (const [n, kind] of ['push', 'issues', 'push', 'release'].entries()) {
      // Different bodies: the same body twice would be one delivery and a duplicate.
      await postDelivery(events.ingressUrl, JSON.stringify({ n }), {
        ...bearer(events.secret),
        'X-Kind': kind,
      });
    }
    const trigger = {
      ...webhookTrigger([events.webhook.uid]),
      filter: { webhook_ids: [events.webhook.uid], headers: { 'x-kind': ['push', 'release'] } },
    };
    const body = await matches(trigger);
    expect(body).toMatchObject({ scanned: 4, matched: 3 });
    expect(body.items.find((i) => i.verdict === 'Would not trigger')!.detail).toBe(
      'headers: x-kind: expected one of ["push","release"], got "issues"',
    );
    const refused = await relay.callError('automations.filterMatches', {
      trigger: {
        ...trigger,
        filter: { webhook_ids: [events.webhook.uid], headers: { Authorization: { exists: true } } },
      },
    });
    expect(refused.code).toBe('invalid_input');
    expect(refused.path).toBe('trigger.filter.headers.Authorization');
  });

  it('lists the paths seen in stored payloads, with an example each, for autocomplete', async () => {
    const body = await relay.call('webhooks.fields', { uid: prs.webhook.uid });
    expect(body.scanned).toBe(50);
    expect(body.truncated).toBe(false);
    const byPath = new Map(body.items.map((f) => [f.path, f]));
    expect([...byPath.keys()].sort()).toEqual(
      [
        'action',
        'hotfix',
        'labels.name',
        'number',
        'pull_request.draft',
        'pull_request.title',
      ].sort(),
    );
    // Newest first: n = 49 is the first payload read.
    expect(byPath.get('action')).toEqual({
      path: 'action',
      keys: ['action'],
      example: '"closed"',
      type: 'string',
      seenIn: 50,
    });
    expect(byPath.get('labels.name')).toMatchObject({
      keys: ['labels', 'name'],
      example: '"bug"',
      seenIn: 50,
    });
    expect(byPath.get('hotfix')).toMatchObject({ example: 'true', type: 'boolean', seenIn: 5 });
    expect(body.items[body.items.length - 1]!.path).toBe('hotfix');

    const few = await relay.call('webhooks.fields', { uid: prs.webhook.uid, limit: 3 });
    expect(few.scanned).toBe(3);
    expect(few.items.find((f) => f.path === 'hotfix')).toBeUndefined();
    const missing = await relay.callError('webhooks.fields', {
      uid: 'wh_000000000000000000000000',
    });
    expect(missing.code).toBe('not_found');
  });
});
