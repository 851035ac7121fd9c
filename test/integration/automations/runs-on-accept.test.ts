import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAutomation, getRun, waitForRun, webhookTrigger } from '../../support/automations.js';
import { getDelivery, waitForDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

describe('runs are queued in the accept transaction', () => {
  let relay: TestRelay;
  let uid: string;
  let other: string;
  let secret: string;
  let url: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    secret = created.secret!;
    url = created.ingressUrl;
    other = (await relay.createWebhook({ name: 'stripe' })).webhook.uid;
  });
  afterEach(() => relay.stop());

  it('starts one run per enabled automation whose trigger selects the webhook and whose filter matches', async () => {
    const names = [
      'any',
      'opened-only',
      'closed-only',
      'disabled',
      'other-webhook',
      'two-triggers',
    ];
    const [any, openedOnly, , , , twoTriggers] = await Promise.all([
      createAutomation(relay, { name: names[0]!, triggers: [webhookTrigger([uid])] }),
      createAutomation(relay, {
        name: names[1]!,
        triggers: [webhookTrigger([uid], { action: ['opened'], pull_request: { draft: false } })],
      }),
      createAutomation(relay, {
        name: names[2]!,
        triggers: [webhookTrigger([uid], { action: 'closed' })],
      }),
      createAutomation(relay, {
        name: names[3]!,
        enabled: false,
        triggers: [webhookTrigger([uid])],
      }),
      createAutomation(relay, { name: names[4]!, triggers: [webhookTrigger([other])] }),
      // Two triggers that both match still start one run for the automation.
      createAutomation(relay, {
        name: names[5]!,
        triggers: [
          webhookTrigger([uid]),
          webhookTrigger([other, uid], { action: { exists: true } }),
        ],
      }),
    ]);

    const sent = await postDelivery(
      url,
      '{"action":"opened","pull_request":{"draft":false,"title":"Fix"}}',
      bearer(secret),
    );
    expect(sent.status).toBe(202);
    const delivery = await getDelivery(relay, sent.body.delivery_id!);
    expect(delivery.label).toBe('Accepted');
    const started = await Promise.all(delivery.runIds.map((id) => getRun(relay, id)));
    expect(started.map((r) => r.automationId).sort()).toEqual(
      [any.id, openedOnly.id, twoTriggers.id].sort(),
    );
    for (const run of started) {
      expect(run).toMatchObject({
        deliveryId: delivery.id,
        webhookUid: uid,
        webhookName: 'github-prod',
      });
    }
  });

  it('still accepts and logs a delivery that matches no automation, and starts nothing', async () => {
    await createAutomation(relay, {
      name: 'closed-only',
      triggers: [webhookTrigger([uid], { action: 'closed' })],
    });
    const sent = await postDelivery(url, '{"action":"opened"}', bearer(secret));
    expect(sent.status).toBe(202);
    const delivery = await getDelivery(relay, sent.body.delivery_id!);
    expect(delivery).toMatchObject({
      label: 'Accepted',
      runIds: [],
      payload: '{"action":"opened"}',
    });
    expect(
      relay.logs.some((l) => l.includes(delivery.id) && l.includes('no automation matched')),
    ).toBe(true);
  });

  it('starts nothing for a duplicate or a rejected delivery', async () => {
    await createAutomation(relay, { name: 'any', triggers: [webhookTrigger([uid])] });
    const first = await postDelivery(url, '{"n":1}', bearer(secret));
    const again = await postDelivery(url, '{"n":1}', bearer(secret));
    const badAuth = await postDelivery(url, '{"n":2}', bearer('wrong'));
    const badJson = await postDelivery(url, '{"n":', bearer(secret));
    expect([first.status, again.status, badAuth.status, badJson.status]).toEqual([
      202, 202, 401, 400,
    ]);

    const entries = await waitForDeliveries(relay, uid, 4);
    const byLabel = Object.fromEntries(entries.map((e) => [e.label, e.runIds.length]));
    expect(byLabel).toEqual({
      Accepted: 1,
      Duplicate: 0,
      'Rejected (auth)': 0,
      'Rejected (invalid JSON)': 0,
    });
    const runs = await relay.call('runs.list', {});
    expect(runs.items).toHaveLength(1);
  });

  it('plans with what was saved last: a disabled or re-filtered automation changes the next delivery at once', async () => {
    const automation = await createAutomation(relay, {
      name: 'flip',
      triggers: [webhookTrigger([uid])],
    });
    const post = async (n: number) => {
      const sent = await postDelivery(url, JSON.stringify({ n }), bearer(secret));
      return (await getDelivery(relay, sent.body.delivery_id!)).runIds.length;
    };
    expect(await post(1)).toBe(1);
    await relay.call('automations.update', { id: automation.id, enabled: false });
    expect(await post(2)).toBe(0);
    await relay.call('automations.update', {
      id: automation.id,
      enabled: true,
      triggers: [webhookTrigger([uid], { n: { not_in: [3] } })],
    });
    expect(await post(3)).toBe(0);
    expect(await post(4)).toBe(1);
    await relay.call('automations.delete', { id: automation.id });
    expect(await post(5)).toBe(0);
  });

  it('records each run with the record executor (the default): input kept, status succeeded', async () => {
    const automation = await createAutomation(relay, {
      name: 'keep',
      prompt: 'Summarise the delivery.',
      triggers: [webhookTrigger([uid])],
    });
    const sent = await postDelivery(url, '{"hello":"world"}', bearer(secret));
    const [runId] = (await getDelivery(relay, sent.body.delivery_id!)).runIds;
    const run = await waitForRun(relay, runId!);
    expect(run).toMatchObject({
      status: 'succeeded',
      automationName: 'keep',
      payload: '{"hello":"world"}',
    });
    expect(run.input.startsWith('Summarise the delivery.\n')).toBe(true);
    expect(run.input).toContain(`- Webhook: github-prod (${uid})`);
    expect(run.input).toContain(`- Delivery ID: ${sent.body.delivery_id}`);
    expect(run.input).toMatch(/`event-payload.json` is the request to act on/);
    expect(run.input).toMatch(/untrusted context/);

    const listed = await relay.call('automations.get', { id: automation.id });
    expect(listed.runs24h).toBe(1);
  });
});
