import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  newestEntry,
  post,
} from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

describe('Rotate secret on a signature webhook', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it.each(SENDERS.map((s) => [s.scheme, s] as const))(
    "%s: takes the provider's new secret; the old one is refused at once",
    async (_n, sender) => {
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
      const before = genuineDelivery(sender);
      expect((await post(ingressUrl, before.body, before.headers)).status).toBe(202);

      const rotated = await relay.call('webhooks.rotate', {
        uid: webhook.uid,
        secret: sender.otherSecret,
      });
      expect(rotated).toEqual({ secret: sender.otherSecret, ingressUrl });

      // Signed with the old secret, a moment after the rotation answered: no overlap window.
      const old = genuineDelivery(sender);
      expect((await post(ingressUrl, old.body, old.headers)).status).toBe(401);
      expect((await newestEntry(relay, webhook.uid)).label).toBe('Rejected (auth)');

      const fresh = genuineDelivery(sender, { secret: sender.otherSecret });
      expect((await post(ingressUrl, fresh.body, fresh.headers)).status).toBe(202);
    },
  );

  it('standard-webhooks: a blank rotation generates a new whsec_ secret, shown once', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);

    const rotated = await relay.call('webhooks.rotate', { uid: webhook.uid });
    const secret = rotated.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    const fresh = genuineDelivery(sender, { secret });
    expect((await post(ingressUrl, fresh.body, fresh.headers)).status).toBe(202);
    // The raw answer, every field of it: a secret must not be on the wire at all.
    const shown = await relay.api('GET', `/api/webhooks/${webhook.uid}`);
    expect(JSON.stringify(shown.body)).not.toContain(secret);
  });

  it('github: a blank rotation is refused, since only the provider knows its secret', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'github')!;
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);

    const rotated = await relay.callError('webhooks.rotate', { uid: webhook.uid });
    expect(rotated).toMatchObject({ code: 'invalid_input', path: 'secret' });
    const still = genuineDelivery(sender);
    expect((await post(ingressUrl, still.body, still.headers)).status).toBe(202);
  });
});
