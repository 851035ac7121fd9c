import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestFilterResult } from '../../../src/shared/contract/automations.js';
import { webhookTrigger } from '../../support/automations.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

type ErrorBody = { error: { code: string; message: string; path?: string } };

const PULL_REQUEST = JSON.stringify({
  action: 'closed',
  pull_request: { state: 'closed', labels: [{ name: 'bug' }, { name: 'ui' }] },
});

describe('Test filter (POST /api/automations/test-filter)', () => {
  let relay: TestRelay;
  let uid: string;
  let otherUid: string;
  let deliveryId: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    otherUid = (await relay.createWebhook({ name: 'stripe' })).webhook.uid;
    const sent = await postDelivery(created.ingressUrl, PULL_REQUEST, bearer(created.secret));
    deliveryId = sent.body.delivery_id!;
  });
  afterEach(() => relay.stop());

  const test = (trigger: unknown, id = deliveryId, token?: string) =>
    relay.api<TestFilterResult>(
      'POST',
      '/api/automations/test-filter',
      { trigger, deliveryId: id },
      token ? { token } : {},
    );

  it('answers Would trigger for an unsaved trigger that selects the webhook and matches', async () => {
    const response = await test(
      webhookTrigger([otherUid, uid], {
        action: { in: ['closed', 'merged'] },
        pull_request: { labels: { name: 'bug' } },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
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
    expect(response.body).toEqual({
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
    expect(response.body.verdict).toBe('Would not trigger');
    expect(response.body.payloadCheck.failingPath).toBe('action');
    expect(response.body.payloadCheck.failures).toEqual([
      { path: 'action', expected: '"opened"', actual: '"closed"' },
      { path: 'pull_request.state', expected: '"open"', actual: '"closed"' },
      { path: 'pull_request.merged', expected: 'present', actual: 'missing' },
      { path: 'sender', expected: 'an object', actual: 'missing' },
    ]);
  });

  it('fails the webhook check when the trigger does not select the delivery’s webhook', async () => {
    const response = await test(webhookTrigger([otherUid]));
    expect(response.body.verdict).toBe('Would not trigger');
    expect(response.body.webhookCheck).toEqual({
      passed: false,
      detail: `github-prod (${uid}) is not selected in "Webhook received from"`,
    });
    expect(response.body.payloadCheck).toEqual({
      passed: true,
      detail: 'no payload filter: every delivery matches',
      failures: [],
    });
  });

  it('reports a missing field as missing', async () => {
    const response = await test(webhookTrigger([uid], { sender: { login: { exists: true } } }));
    expect(response.body.payloadCheck).toMatchObject({
      passed: false,
      failingPath: 'sender',
      expected: 'an object',
      actual: 'missing',
    });
  });

  it('is open to view tokens', async () => {
    const viewer = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'ro',
      role: 'view',
    });
    const response = await test(webhookTrigger([uid]), deliveryId, viewer.body.value);
    expect(response.status).toBe(200);
    expect(response.body.verdict).toBe('Would trigger');
  });

  it('refuses an invalid filter naming its path', async () => {
    const response = await relay.api<ErrorBody>('POST', '/api/automations/test-filter', {
      trigger: webhookTrigger([uid], { action: { in: [] } }),
      deliveryId,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.path).toBe('trigger.filter.payload.action.in');
  });

  it('says plainly that a duplicate or rejected delivery has no payload to test', async () => {
    const { ingressUrl, secret } = await relay.createWebhook({ name: 'again' });
    const first = await postDelivery(ingressUrl, '{"a":1}', bearer(secret));
    const duplicate = await postDelivery(ingressUrl, '{"a":1}', bearer(secret));
    const response = await relay.api<ErrorBody>('POST', '/api/automations/test-filter', {
      trigger: webhookTrigger([uid]),
      deliveryId: duplicate.body.delivery_id,
    });
    expect(response.status).toBe(409);
    expect(response.body.error.message).toBe(
      `${duplicate.body.delivery_id} is "Duplicate": only Accepted deliveries keep a payload; use the original, ${first.body.delivery_id}.`,
    );

    const missing = await relay.api<ErrorBody>('POST', '/api/automations/test-filter', {
      trigger: webhookTrigger([uid]),
      deliveryId: 'dlv_00000000000000000000000000',
    });
    expect(missing.status).toBe(404);
  });
});
