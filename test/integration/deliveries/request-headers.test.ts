import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDelivery, waitForDeliveries } from '../../support/deliveries.js';
import { postRawHeaders } from '../../support/http-request.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook } from '../signatures/support/relay-calls.js';
import { nowSeconds, SENDERS } from '../signatures/support/senders.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;

describe('GET /api/deliveries/:id: the request as received (§13)', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('gives method, path and headers byte for byte (order, case, repeats), credentials redacted', async () => {
    const { webhook, secret } = await relay.createWebhook({ name: 'hdrs' });
    const body = '{"a":1}';
    const pairs: Array<[string, string]> = [
      ['X-First', 'one, with a comma'],
      ['authorization', `Bearer ${secret}`],
      ['x-Repeated', 'a'],
      ['X-REPEATED', 'b'],
      ['Cookie', 'session=abc'],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(body.length)],
    ];
    const sent = await postRawHeaders(`${webhook.ingressUrl}?source=ci`, pairs, body);
    expect(sent.status).toBe(202);

    const entry = await getDelivery(relay, sent.deliveryId!);
    expect(entry.method).toBe('POST');
    expect(entry.path).toBe(`/webhooks/w/${webhook.uid}?source=ci`);
    expect(entry.headers).toEqual([
      ['Host', new URL(webhook.ingressUrl).host],
      ['X-First', 'one, with a comma'],
      ['authorization', '[redacted]'],
      ['x-Repeated', 'a'],
      ['X-REPEATED', 'b'],
      ['Cookie', '[redacted]'],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(body.length)],
      // Node's client adds this last line itself (no keep-alive agent).
      ['Connection', 'close'],
    ]);
    expect(JSON.stringify(entry)).not.toContain(secret!);
  });

  it('shows a rejected delivery’s headers, so an operator can see what came and what was missing', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);
    const body = '{"action":"opened"}';
    const signed = github.sign(Buffer.from(body), github.otherSecret, nowSeconds(), randomUUID());
    const sent = await postRawHeaders(
      ingressUrl,
      [
        ['X-GitHub-Event', 'pull_request'],
        ['X-GitHub-Delivery', signed['X-GitHub-Delivery']!],
        ['X-Hub-Signature-256', signed['X-Hub-Signature-256']!],
        ['Content-Length', String(body.length)],
      ],
      body,
    );
    expect(sent.status).toBe(401);
    const [rejected] = await waitForDeliveries(relay, webhook.uid, 1);
    const entry = await getDelivery(relay, rejected!.id);
    expect(entry).toMatchObject({
      label: 'Rejected (auth)',
      reason: 'signature mismatch',
      payload: null,
      method: 'POST',
      path: `/webhooks/w/${webhook.uid}`,
      eventType: 'pull_request',
    });
    expect(entry.headers).toContainEqual(['X-Hub-Signature-256', '[redacted]']);
    expect(entry.headers).toContainEqual(['X-GitHub-Event', 'pull_request']);
    expect(JSON.stringify(entry)).not.toContain(signed['X-Hub-Signature-256']!);
  });

  it('says "not recorded" (null) for entries logged before requests were kept', async () => {
    const { ingressUrl, secret } = await relay.createWebhook({ name: 'old' });
    const sent = await postRawHeaders(ingressUrl, [['Authorization', `Bearer ${secret}`]], '{}');
    // What migration 003 leaves for an entry written before it: no request_contexts row.
    sqliteDbOf(relay.core.store)
      .prepare('DELETE FROM request_contexts WHERE delivery_id = ?')
      .run(sent.deliveryId);
    const entry = await getDelivery(relay, sent.deliveryId!);
    expect(entry).toMatchObject({ label: 'Accepted', method: null, path: null, headers: null });
  });
});
