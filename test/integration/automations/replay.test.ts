import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAutomation, getRun, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { runCli } from '../../support/run-hookport.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

describe('Replay', () => {
  let relay: TestRelay;
  let uid: string;
  let url: string;
  let secret: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'github-prod' });
    uid = created.webhook.uid;
    url = created.ingressUrl;
    secret = created.secret!;
  });
  afterEach(() => relay.stop());

  it("re-evaluates the stored payload against today's automations as a new entry linked to the original", async () => {
    const raw = '{ "action": "opened",\n  "n": 1 }';
    const original = await postDelivery(url, raw, bearer(secret));
    const originalId = original.body.delivery_id!;
    expect((await getDelivery(relay, originalId)).runIds).toEqual([]);

    // Added after the delivery arrived: only a replay can start it for this payload.
    const automation = await createAutomation(relay, {
      name: 'late',
      triggers: [webhookTrigger([uid], { action: 'opened' })],
    });
    const replayed = await relay.call('deliveries.replay', { id: originalId });
    expect(replayed.delivery_id).not.toBe(originalId);
    expect(replayed.runs).toHaveLength(1);

    const entry = await getDelivery(relay, replayed.delivery_id);
    expect(entry).toMatchObject({
      label: 'Accepted',
      replayOf: originalId,
      payload: raw,
      webhookUid: uid,
      runIds: replayed.runs,
      reason: `replay of ${originalId} (duplicate check skipped on purpose)`,
    });
    // The relay's one line per delivery covers replays too.
    expect(relay.logs).toContain(
      `[ingress] 202 Accepted ${uid} ${replayed.delivery_id} ${Buffer.byteLength(raw)}B (replay of ${originalId}; 1 run(s) queued)`,
    );
    const run = await getRun(relay, replayed.runs[0]!);
    expect(run.automationId).toBe(automation.id);
    expect(run.input).toContain(`- Delivery ID: ${replayed.delivery_id}`);

    // Replaying twice is on purpose too: each replay is accepted, never a Duplicate.
    const twice = await relay.call('deliveries.replay', { id: originalId });
    expect((await getDelivery(relay, twice.delivery_id)).label).toBe('Accepted');
    // …and the sender's identity still dedupes the sender's own retries.
    expect((await postDelivery(url, raw, bearer(secret))).status).toBe(202);
    const log = await relay.call('deliveries.list', { uid });
    expect(log.items.map((d) => d.label)).toEqual([
      'Duplicate',
      'Accepted',
      'Accepted',
      'Accepted',
    ]);
  });

  it('refuses deliveries without a payload, unknown ones, deleted webhooks and view tokens', async () => {
    const first = await postDelivery(url, '{"a":1}', bearer(secret));
    const duplicate = await postDelivery(url, '{"a":1}', bearer(secret));
    const refused = await relay.callError('deliveries.replay', {
      id: duplicate.body.delivery_id!,
    });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/only Accepted deliveries keep a payload/);

    const unknown = await relay.callError('deliveries.replay', {
      id: 'dlv_00000000000000000000000000',
    });
    expect(unknown.code).toBe('not_found');

    // The role check is the transport's: the view token's refusal is read as HTTP.
    const viewer = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    const asViewer = await relay.api(
      'POST',
      `/api/deliveries/${first.body.delivery_id}/replay`,
      undefined,
      { token: viewer.value },
    );
    expect(asViewer.status).toBe(403);

    await relay.call('webhooks.delete', { uid });
    const gone = await relay.callError('deliveries.replay', { id: first.body.delivery_id! });
    expect(gone.code).toBe('conflict');
    expect(gone.message).toMatch(/was deleted/);
  });

  it('hookport replay talks to the running relay through the admin API', async () => {
    await createAutomation(relay, { name: 'echo', triggers: [webhookTrigger([uid])] });
    const original = await postDelivery(url, '{"b":2}', bearer(secret));
    const id = original.body.delivery_id!;

    const withToken = await runCli(['replay', id, '--admin-url', relay.adminUrl], {
      HOOKPORT_ADMIN_TOKEN: relay.adminToken,
    });
    expect(withToken.code).toBe(0);
    expect(withToken.stdout).toMatch(
      new RegExp(`^Replayed ${id} as dlv_\\w{26} \\(duplicate check skipped on purpose\\)\\.\\n`),
    );
    expect(withToken.stdout).toMatch(/ {2}run_\w{26} {2}echo {2}\((queued|succeeded)\)/);

    // Without the variable, the token comes from <data-dir>/admin-token.
    const fromFile = await runCli([
      'replay',
      id,
      '--admin-url',
      relay.adminUrl,
      '--data-dir',
      relay.dataDir,
    ]);
    expect(fromFile.code).toBe(0);

    const notAccepted = await runCli(
      ['replay', 'dlv_00000000000000000000000000', '--admin-url', relay.adminUrl],
      { HOOKPORT_ADMIN_TOKEN: relay.adminToken },
    );
    expect(notAccepted.code).toBe(1);
    expect(notAccepted.stderr).toMatch(/No delivery dlv_0+/);

    const badId = await runCli(['replay', 'nope', '--admin-url', relay.adminUrl]);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toMatch(/"nope" is not a delivery ID/);

    const noRelay = await runCli(['replay', id, '--admin-url', 'http://127.0.0.1:9'], {
      HOOKPORT_ADMIN_TOKEN: relay.adminToken,
    });
    expect(noRelay.code).toBe(1);
    expect(noRelay.stderr).toMatch(/Cannot reach the relay at http:\/\/127\.0\.0\.1:9/);
  });
});
