import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  newestEntry,
  post,
} from './support/relay-calls.js';
import { genuineDelivery, nowSeconds, SENDERS } from './support/senders.js';

const timestamped = SENDERS.filter((s) => s.toleranceSeconds !== null).map(
  (s) => [s.scheme, s.toleranceSeconds!, s] as const,
);

describe('signed timestamps (replay protection)', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(() => relay.stop());

  it('covers the schemes that sign a timestamp, with 5 minutes for stripe and standard-webhooks', () => {
    expect(Object.fromEntries(timestamped.map(([name, tolerance]) => [name, tolerance]))).toEqual({
      'standard-webhooks': 300,
      stripe: 300,
      slack: 300,
      linear: 60,
      paddle: 5,
    });
  });

  it.each(timestamped)(
    '%s: older or newer than %i s → 401, inside it → 202',
    async (_n, tolerance, sender) => {
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
      // Margins wide enough for a slow machine, small next to each tolerance.
      const beyond = tolerance + 30;
      for (const offset of [-beyond, beyond]) {
        const { body, headers } = genuineDelivery(sender, { seconds: nowSeconds() + offset });
        const sent = await post(ingressUrl, body, headers);
        expect(sent.status, `offset ${offset} s`).toBe(401);
        const logged = await newestEntry(relay, webhook.uid);
        expect(logged.label).toBe('Rejected (auth)');
        expect(logged.reason).toMatch(/outside the \d+ s tolerance/);
      }
      const inside = Math.floor(tolerance / 2);
      for (const offset of [-inside, inside]) {
        const { body, headers } = genuineDelivery(sender, { seconds: nowSeconds() + offset });
        expect((await post(ingressUrl, body, headers)).status, `offset ${offset} s`).toBe(202);
      }
    },
  );

  it('linear: a signed body without webhookTimestamp → 401', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'linear')!;
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
    const body = Buffer.from('{"action":"create","type":"Issue"}');
    const signature = createHmac('sha256', sender.secret).update(body).digest('hex');

    const sent = await post(ingressUrl, body, { 'Linear-Signature': signature });

    expect(sent.status).toBe(401);
    expect((await newestEntry(relay, webhook.uid)).reason).toBe(
      'body has no webhookTimestamp in milliseconds',
    );
  });
});
