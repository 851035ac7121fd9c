import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  entry,
  newestEntry,
  post,
} from './support/relay-calls.js';
import { genuineDelivery, SENDERS, type ProviderSender } from './support/senders.js';

const bySchemes = (senders: readonly ProviderSender[]) =>
  senders.map((s) => [s.scheme, s] as const);

describe('a forged delivery', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  /** 401 with the generic message; the log entry says why, without the secrets. */
  async function expectRefused(
    sender: ProviderSender,
    uid: string,
    sent: Awaited<ReturnType<typeof post>>,
    reason: RegExp,
  ): Promise<void> {
    expect(sent.status).toBe(401);
    expect(sent.body.error).toEqual({
      code: 'unauthorized',
      message: 'Authentication failed for this webhook.',
    });
    const logged = await newestEntry(relay, uid);
    expect(logged.label).toBe('Rejected (auth)');
    expect(logged.reason).toMatch(reason);
    expect(logged.reason).not.toContain(sender.secret);
    expect(logged.reason).not.toContain(sender.otherSecret);
    const stored = await entry(relay, logged.id);
    expect(stored.payload, 'a rejected entry stores no payload').toBeNull();
  }

  it.each(bySchemes(SENDERS))('%s: signed with the wrong secret → 401', async (_n, sender) => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender, { secret: sender.otherSecret });

    const sent = await post(ingressUrl, body, headers);

    await expectRefused(sender, webhook.uid, sent, /mismatch/);
  });

  it.each(bySchemes(SENDERS.filter((s) => s.coversBody)))(
    '%s: one byte of the body changed after signing → 401',
    async (_n, sender) => {
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
      const { body, headers } = genuineDelivery(sender, { text: 'amount=100' });
      const tampered = Buffer.from(body);
      tampered[tampered.indexOf('100') + 1] = '9'.charCodeAt(0);

      const sent = await post(ingressUrl, tampered, headers);

      await expectRefused(sender, webhook.uid, sent, /signature mismatch/);
    },
  );

  it('gitlab: the token does not cover the body, so a changed body still passes (GitLab signs nothing)', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'gitlab')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const { body, headers } = genuineDelivery(sender, { text: 'amount=100' });

    const sent = await post(ingressUrl, body.toString().replace('100', '900'), headers);

    expect(sent.status).toBe(202);
  });

  it('a token-mode Bearer header is no credential for a signature webhook', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'github')!;
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);

    const sent = await post(ingressUrl, '{}', { authorization: `Bearer ${sender.secret}` });

    await expectRefused(sender, webhook.uid, sent, /missing X-Hub-Signature-256 header/);
  });
});
