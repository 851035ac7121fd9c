import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { logSettled } from '../../support/deliveries.js';
import { parseMetrics, sampleValue } from '../../support/prometheus.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

describe('GET /metrics on the admin listener', () => {
  let relay: TestRelay;
  let viewToken: string;

  const scrape = async (token: string | null = viewToken) => {
    const response = await fetch(`${relay.adminUrl}/metrics`, {
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      text: await response.text(),
    };
  };
  const metrics = async () => {
    const { status, text } = await scrape();
    expect(status).toBe(200);
    return parseMetrics(text);
  };

  beforeAll(async () => {
    relay = await startTestRelay();
    const minted = await relay.api<{ value: string }>('POST', '/api/tokens', {
      name: 'prometheus',
      role: 'view',
    });
    viewToken = minted.body.value;
  });
  afterAll(() => relay.stop());

  it('needs the admin token or a view token, and is not on the ingress listener', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('not-a-token')).status).toBe(401);
    const withAdmin = await scrape(relay.adminToken);
    expect(withAdmin.status).toBe(200);
    expect(withAdmin.type).toContain('text/plain');
    expect((await fetch(`${relay.ingressUrl}/metrics`)).status).toBe(404);
  });

  it('counts deliveries by webhook and label, and refusals by status, as they happen', async () => {
    const { webhook, secret, ingressUrl } = await relay.createWebhook({ name: 'counted' });
    const uid = webhook.uid;
    await createAutomation(relay, { name: 'count-runs', triggers: [webhookTrigger([uid])] });
    const before = await metrics();
    const accepted = (m: typeof before) =>
      sampleValue(m, 'hookport_deliveries_total', { webhook_uid: uid, label: 'Accepted' });
    const rejected = (m: typeof before) =>
      sampleValue(m, 'hookport_deliveries_total', { webhook_uid: uid, label: 'Rejected (auth)' });
    expect(accepted(before)).toBe(0);
    const commitsBefore = Number(
      before.get('hookport_accept_commit_duration_seconds')!.metrics[0]!.count,
    );

    for (let i = 0; i < 3; i++) {
      expect((await postDelivery(ingressUrl, `{"n":${i}}`, bearer(secret))).status).toBe(202);
    }
    expect((await postDelivery(ingressUrl, '{}', bearer('wrong'))).status).toBe(401);
    expect(
      (await postDelivery(`${relay.ingressUrl}/webhooks/w/${'x'.repeat(5)}`, '{}')).status,
    ).toBe(404);
    await logSettled(relay);

    const after = await metrics();
    expect(accepted(after)).toBe(3);
    expect(rejected(after)).toBe(1);
    expect(sampleValue(after, 'hookport_refusals_total', { status: '404' })).toBe(
      sampleValue(before, 'hookport_refusals_total', { status: '404' }) + 1,
    );
    const histogram = after.get('hookport_accept_commit_duration_seconds')!;
    expect(histogram.type).toBe('HISTOGRAM');
    expect(Number(histogram.metrics[0]!.count)).toBeGreaterThan(commitsBefore);
    expect(sampleValue(after, 'hookport_webhook_info', { webhook_uid: uid, name: 'counted' })).toBe(
      1,
    );

    // Each accepted delivery started a run of the record executor, which finishes at once.
    const settled = await waitFor(async () => {
      const m = await metrics();
      return sampleValue(m, 'hookport_runs', { status: 'succeeded', executor: 'record' }) >= 3
        ? m
        : null;
    }, 'three succeeded runs');
    expect(sampleValue(settled, 'hookport_run_queue_depth')).toBe(0);
    expect(sampleValue(settled, 'hookport_oldest_queued_run_age_seconds')).toBe(0);
  });
});
