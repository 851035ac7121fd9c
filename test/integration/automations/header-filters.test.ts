import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PayloadFilter } from '../../../src/shared/filter/types.js';
import { createAutomation, listRuns } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, post } from '../signatures/support/relay-calls.js';
import { nowSeconds, SENDERS } from '../signatures/support/senders.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;
const hmac = SENDERS.find((s) => s.scheme === 'hmac-sha256')!;

const trigger = (uid: string, headers: PayloadFilter, payload?: PayloadFilter) => ({
  provider: 'webhook' as const,
  event: 'received' as const,
  filter: { webhook_ids: [uid], headers, ...(payload ? { payload } : {}) },
});

/**
 * The issue's "done when": GitHub sends `issues` and `pull_request` with the same action; an
 * automation filtered on X-GitHub-Event fires for one, and Test filter says why not the other.
 */
describe('header filters (filter.headers, §13)', () => {
  let relay: TestRelay;
  let uid: string;
  let ingressUrl: string;
  const send = async (event: string, extra: Record<string, string | string[]> = {}) => {
    const body = Buffer.from(JSON.stringify({ action: 'opened', number: 1 }));
    const signed = github.sign(body, github.secret, nowSeconds(), randomUUID());
    const sent = await post(ingressUrl, body, { ...signed, 'X-GitHub-Event': event, ...extra });
    expect(sent.status).toBe(202);
    return sent.body.delivery_id!;
  };
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(() => relay.stop());
  // A webhook of its own per test: only that test's automations select it, and its deliveries
  // and runs are the test's alone (deleted after it, since a factory holds 20 live webhooks).
  beforeEach(async () => {
    ({
      webhook: { uid },
      ingressUrl,
    } = await createSignatureWebhook(relay, github));
  });
  afterEach(() => relay.call('webhooks.delete', { uid }));

  it('fires for pull_request, not for issues, and Test filter explains why not', async () => {
    const automation = await createAutomation(relay, {
      name: 'pr-only',
      triggers: [trigger(uid, { 'x-github-event': ['pull_request'] })],
    });
    const pr = await send('pull_request');
    const issue = await send('issues');

    expect((await getDelivery(relay, pr)).runIds).toHaveLength(1);
    expect((await getDelivery(relay, issue)).runIds).toEqual([]);
    const runs = await listRuns(relay, `?automation=${automation.id}`);
    expect(runs.items.map((r) => r.deliveryId)).toEqual([pr]);

    const verdict = await relay.call('automations.testFilter', {
      trigger: automation.triggers[0]!,
      deliveryId: issue,
    });
    expect(verdict).toEqual({
      verdict: 'Would not trigger',
      webhookCheck: { passed: true, detail: expect.stringContaining('is selected') as unknown },
      payloadCheck: {
        passed: true,
        detail: 'no payload filter: every delivery matches',
        failures: [],
      },
      headerCheck: {
        passed: false,
        failingPath: 'x-github-event',
        expected: 'one of ["pull_request"]',
        actual: '"issues"',
        detail: 'x-github-event: expected one of ["pull_request"], got "issues"',
        failures: [
          { path: 'x-github-event', expected: 'one of ["pull_request"]', actual: '"issues"' },
        ],
      },
    });
    const passes = await relay.call('automations.testFilter', {
      trigger: automation.triggers[0]!,
      deliveryId: pr,
    });
    expect(passes).toMatchObject({
      verdict: 'Would trigger',
      headerCheck: { passed: true, detail: 'every key of the header filter matches' },
    });
  });

  it('needs both checks: a matching header with a failing payload does not fire', async () => {
    await createAutomation(relay, {
      name: 'pr-closed',
      triggers: [trigger(uid, { 'X-GitHub-Event': 'pull_request' }, { action: 'closed' })],
    });
    expect((await getDelivery(relay, await send('pull_request'))).runIds).toEqual([]);
  });

  it('matches names case-insensitively and a repeated header by any of its values', async () => {
    await createAutomation(relay, {
      name: 'tagged',
      triggers: [trigger(uid, { 'X-TAG': { in: ['deploy'] }, 'x-github-EVENT': 'push' })],
    });
    const repeated = await send('push', { 'x-tag': ['build', 'deploy'] });
    const other = await send('push', { 'x-tag': ['build'] });
    expect((await getDelivery(relay, repeated)).runIds).toHaveLength(1);
    expect((await getDelivery(relay, other)).runIds).toEqual([]);

    const excluded = await createAutomation(relay, {
      name: 'never-deploy',
      triggers: [trigger(uid, { 'x-tag': { not_in: ['deploy'] } })],
    });
    const verdict = await relay.call('automations.testFilter', {
      trigger: excluded.triggers[0]!,
      deliveryId: repeated,
    });
    expect(verdict.headerCheck).toMatchObject({
      passed: false,
      actual: '["build","deploy"]',
    });
  });

  it('refuses a filter on a redacted header when saved, naming the path', async () => {
    const refused = await relay.callError('automations.create', {
      name: 'bad',
      prompt: 'x',
      triggers: [trigger(uid, { 'X-Hub-Signature-256': { exists: true } })],
    });
    expect(refused).toMatchObject({
      code: 'invalid_input',
      path: 'triggers.0.filter.headers.X-Hub-Signature-256',
      message:
        'triggers.0.filter.headers.X-Hub-Signature-256: X-Hub-Signature-256 carries a credential: its value is stored as [redacted], so it cannot be filtered on',
    });
  });

  it('refuses a filter on a generic HMAC webhook’s own signature header, on save and in Test filter', async () => {
    const generic = await createSignatureWebhook(relay, hmac);
    const body = trigger(generic.webhook.uid, { 'x-signature': 'sha256=abc' });
    const refused = await relay.callError('automations.create', {
      name: 'sig',
      prompt: 'x',
      triggers: [body],
    });
    expect(refused.code).toBe('invalid_input');
    expect(refused.path).toBe('triggers.0.filter.headers.x-signature');
    expect(refused.message).toContain('carries a credential');

    const tested = await relay.callError('automations.testFilter', {
      trigger: body,
      deliveryId: await send('push'),
    });
    expect(tested.code).toBe('invalid_input');
    expect(tested.path).toBe('trigger.filter.headers.x-signature');
  });

  it('refuses header values that are not text', async () => {
    const refused = await relay.callError('automations.create', {
      name: 'num',
      prompt: 'x',
      triggers: [trigger(uid, { 'x-count': 3 })],
    });
    expect(refused.code).toBe('invalid_input');
    expect(refused.path).toBe('triggers.0.filter.headers.x-count');
    expect(refused.message).toContain('a header value is text');
  });
});
