import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listDeliveries, logSettled } from '../../support/deliveries.js';
import {
  bearer,
  deleteAllWebhooks,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';

/** Seed §3: disable, enable, delete take effect for senders at once; rename changes nothing for them. */
describe.each(storeKinds)('a webhook changed by the operator (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  // One relay for the file; each test starts with only its own webhook, as on a fresh relay.
  beforeEach(async () => {
    hook = await relay.createWebhook({ name: 'lifecycle' });
  });
  afterEach(() => deleteAllWebhooks(relay));

  const deliver = (body = '{"n":1}') => postDelivery(hook.ingressUrl, body, bearer(hook.secret));
  const patch = (changes: Omit<MethodInput<'webhooks.update'>, 'uid'>) =>
    relay.call('webhooks.update', { uid: hook.webhook.uid, ...changes });

  it('answers 404 as soon as it is disabled, logging nothing, and 202 again once re-enabled', async () => {
    expect(await patch({ enabled: false })).toMatchObject({ enabled: false });
    const refused = await deliver('{"while":"disabled"}');
    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('not_found');
    await logSettled(relay);
    expect((await listDeliveries(relay, hook.webhook.uid)).items).toEqual([]);

    expect(await patch({ enabled: true })).toMatchObject({ enabled: true });
    expect((await deliver('{"while":"enabled"}')).status).toBe(202);
  });

  it('answers 404 as soon as it is deleted; its UID is never given to another webhook', async () => {
    expect((await deliver('{"before":"delete"}')).status).toBe(202);
    const deleted = await relay.call('webhooks.delete', { uid: hook.webhook.uid });
    expect(deleted).toEqual({ uid: hook.webhook.uid, deleted: true });

    expect((await deliver('{"after":"delete"}')).status).toBe(404);
    const gone = await relay.callError('webhooks.get', { uid: hook.webhook.uid });
    expect(gone.code).toBe('not_found');
    // The delivery log stays readable for automations that still point at it.
    expect((await listDeliveries(relay, hook.webhook.uid)).items).toHaveLength(1);

    const again = await relay.createWebhook({ name: 'lifecycle' });
    expect(again.webhook.uid).not.toBe(hook.webhook.uid);
    expect((await postDelivery(again.ingressUrl, '{}', bearer(again.secret))).status).toBe(202);
    expect((await deliver('{"old":"uid"}')).status).toBe(404);
    const stillGone = await relay.callError('webhooks.update', {
      uid: hook.webhook.uid,
      enabled: true,
    });
    expect(stillGone.code).toBe('not_found');
  });

  it("gives a webhook re-created under a deleted one's name a fresh secret, shown once", async () => {
    await relay.call('webhooks.delete', { uid: hook.webhook.uid });
    const again = await relay.createWebhook({ name: 'lifecycle' });
    expect(again.secret).toEqual(expect.any(String));
    expect(again.secret).not.toBe(hook.secret);
    expect((await postDelivery(again.ingressUrl, '{}', bearer(hook.secret))).status).toBe(401);
    expect((await postDelivery(again.ingressUrl, '{}', bearer(again.secret))).status).toBe(202);
  });

  it('keeps accepting at the same URL with the same secret after a rename', async () => {
    const renamed = await patch({ name: 'renamed' });
    expect(renamed).toMatchObject({
      name: 'renamed',
      uid: hook.webhook.uid,
      ingressUrl: hook.ingressUrl,
    });
    expect((await deliver()).status).toBe(202);
    const listed = await relay.call('webhooks.list', {});
    expect(listed.items.map((w) => w.name)).toEqual(['renamed']);
  });

  it('refuses a rename to a name another webhook already has', async () => {
    await relay.createWebhook({ name: 'taken' });
    const clash = await relay.callError('webhooks.update', {
      uid: hook.webhook.uid,
      name: 'taken',
    });
    expect(clash).toMatchObject({ code: 'conflict', path: 'name' });
  });
});
