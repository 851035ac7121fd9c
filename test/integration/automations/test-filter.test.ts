import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../src/main/cli/admin-client.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { webhookTrigger } from '../../support/automations.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

type Trigger = MethodInput<'automations.testFilter'>['trigger'];

const PULL_REQUEST = JSON.stringify({
  action: 'closed',
  pull_request: { state: 'closed', labels: [{ name: 'bug' }, { name: 'ui' }] },
});

describe('Test filter (POST /api/automations/test-filter)', () => {
  let relay: TestRelay;
  let uid: string;
  let otherUid: string;
  let deliveryId: string;
  // One relay for the file: Test filter changes nothing, so every test reads the same two
  // webhooks and delivery (what a test adds has a name of its own).
  beforeAll(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    otherUid = (await relay.createWebhook({ name: 'stripe' })).webhook.uid;
    const sent = await postDelivery(created.ingressUrl, PULL_REQUEST, bearer(created.secret));
    deliveryId = sent.body.delivery_id!;
  });
  afterAll(() => relay.stop());

  const test = (trigger: Trigger, id = deliveryId) =>
    relay.call('automations.testFilter', { trigger, deliveryId: id });

  it('answers Would trigger for an unsaved trigger that selects the webhook and matches', async () => {
    const response = await test(
      webhookTrigger([otherUid, uid], {
        action: { in: ['closed', 'merged'] },
        pull_request: { labels: { name: 'bug' } },
      }),
    );
    expect(response).toEqual({
      verdict: 'Would trigger',
      webhookCheck: { passed: true, detail: 'github-prod is selected' },
      payloadCheck: {
        passed: true,
        detail: 'every key of the payload filter matches',
        failures: [],
      },
      headerCheck: {
        passed: true,
        detail: 'no header filter: every delivery matches',
        failures: [],
      },
    });
  });

  it('answers Would not trigger with the first failing path, expected and actual value', async () => {
    const response = await test(
      webhookTrigger([uid], { action: 'closed', pull_request: { state: ['open'] } }),
    );
    expect(response).toEqual({
      verdict: 'Would not trigger',
      webhookCheck: { passed: true, detail: 'github-prod is selected' },
      payloadCheck: {
        passed: false,
        failingPath: 'pull_request.state',
        expected: 'one of ["open"]',
        actual: '"closed"',
        detail: 'pull_request.state: expected one of ["open"], got "closed"',
        failures: [{ path: 'pull_request.state', expected: 'one of ["open"]', actual: '"closed"' }],
      },
      headerCheck: {
        passed: true,
        detail: 'no header filter: every delivery matches',
        failures: [],
      },
    });
  });

  it('lists every failing path, not only the first, in the order the filter names them', async () => {
    const response = await test(
      webhookTrigger([uid], {
        action: 'opened',
        pull_request: { state: 'open', merged: { exists: true }, labels: { name: 'bug' } },
        sender: { login: 'octocat' },
      }),
    );
    expect(response.verdict).toBe('Would not trigger');
    expect(response.payloadCheck.failingPath).toBe('action');
    expect(response.payloadCheck.failures).toEqual([
      { path: 'action', expected: '"opened"', actual: '"closed"' },
      { path: 'pull_request.state', expected: '"open"', actual: '"closed"' },
      { path: 'pull_request.merged', expected: 'present', actual: 'missing' },
      { path: 'sender', expected: 'an object', actual: 'missing' },
    ]);
  });

  it('fails the webhook check when the trigger does not select the delivery’s webhook', async () => {
    const response = await test(webhookTrigger([otherUid]));
    expect(response.verdict).toBe('Would not trigger');
    expect(response.webhookCheck).toEqual({
      passed: false,
      detail: `github-prod (${uid}) is not selected in "Webhook received from"`,
    });
    expect(response.payloadCheck).toEqual({
      passed: true,
      detail: 'no payload filter: every delivery matches',
      failures: [],
    });
  });

  it('reports a missing field as missing', async () => {
    const response = await test(webhookTrigger([uid], { sender: { login: { exists: true } } }));
    expect(response.payloadCheck).toMatchObject({
      passed: false,
      failingPath: 'sender',
      expected: 'an object',
      actual: 'missing',
    });
  });

  it('is open to view tokens', async () => {
    const viewer = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    const asViewer = new AdminClient(relay.adminUrl, viewer.value);
    const response = await asViewer.call('automations.testFilter', {
      trigger: webhookTrigger([uid]),
      deliveryId,
    });
    expect(response.verdict).toBe('Would trigger');
  });

  it('refuses an invalid filter naming its path', async () => {
    const response = await relay.callError('automations.testFilter', {
      trigger: webhookTrigger([uid], { action: { in: [] } }),
      deliveryId,
    });
    expect(response.code).toBe('invalid_input');
    expect(response.path).toBe('trigger.filter.payload.action.in');
  });

  it('says plainly that a duplicate or rejected delivery has no payload to test', async () => {
    const { ingressUrl, secret } = await relay.createWebhook({ name: 'again' });
    const first = await postDelivery(ingressUrl, '{"a":1}', bearer(secret));
    const duplicate = await postDelivery(ingressUrl, '{"a":1}', bearer(secret));
    const response = await relay.callError('automations.testFilter', {
      trigger: webhookTrigger([uid]),
      deliveryId: duplicate.body.delivery_id!,
    });
    expect(response.code).toBe('conflict');
    expect(response.message).toBe(
      `${duplicate.body.delivery_id} is "Duplicate": only Accepted deliveries keep a payload; use the original, ${first.body.delivery_id}.`,
    );

    const missing = await relay.callError('automations.testFilter', {
      trigger: webhookTrigger([uid]),
      deliveryId: 'dlv_00000000000000000000000000',
    });
    expect(missing.code).toBe('not_found');
  });
});
