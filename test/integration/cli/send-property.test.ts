import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelivery } from '../../../src/main/cli/outgoing-delivery.js';
import { postOnce } from '../../../src/main/cli/post-once.js';
import { MAX_BODY_BYTES } from '../../../src/main/ingress/limits.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, entry } from '../signatures/support/relay-calls.js';
import { SENDERS, type ProviderSender } from '../signatures/support/senders.js';
import { randomJsonBody, seededRandom, type BodyShape } from './support/random-json.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';
import { schemeFlags } from './support/scheme-flags.js';

const SEED = Number(process.env.HOOKPORT_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 32));
/** Random bodies per scheme, besides the three fixed shapes: bounded so the file runs in seconds. */
const RANDOM_BODIES_PER_SCHEME = 4;
/** What Linear's inserted field adds: `,"webhookTimestamp":` and 13 digits of milliseconds. */
const LINEAR_FIELD_BYTES = ',"webhookTimestamp":'.length + 13;

const shapes = (sender: ProviderSender): [string, BodyShape][] => {
  const object = sender.scheme === 'linear';
  const exact = MAX_BODY_BYTES - (object ? LINEAR_FIELD_BYTES : 0);
  return [
    ['non-ASCII', { object, nonAscii: true, size: null, bom: false }],
    ['leading BOM', { object, nonAscii: false, size: null, bom: true }],
    [`exactly ${MAX_BODY_BYTES} bytes`, { object, nonAscii: true, size: exact, bom: false }],
    ...Array.from({ length: RANDOM_BODIES_PER_SCHEME }, (_, i): [string, BodyShape] => [
      `random #${i + 1}`,
      { object, nonAscii: false, size: null, bom: i % 2 === 1 },
    ]),
  ];
};

describe(`what hookport send signs, the relay accepts (seed ${SEED})`, () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    removeBodyFiles();
    await relay.stop();
  });

  it.each(SENDERS.map((s) => [s.scheme, s] as const))('%s', async (_n, sender) => {
    const random = seededRandom(SEED ^ sender.scheme.length);
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const sent = new Set<string>();
    for (const [label, shape] of shapes(sender)) {
      // The same body signed in the same second is the same signature: a replay, rightly a
      // Duplicate. Small random bodies repeat (`{}`), so a repeat is drawn again.
      let body = randomJsonBody(random, shape);
      while (sent.has(body.toString('hex'))) body = randomJsonBody(random, shape);
      sent.add(body.toString('hex'));
      const why = `${sender.scheme}, ${label}, seed ${SEED}`;
      // What `hookport send` does with a file's bytes, minus reading the file.
      const delivery = buildDelivery(
        {
          body,
          secret: sender.secret,
          scheme: sender.scheme,
          hmacOptions: sender.signatureOptions ?? null,
          id: `${label}-${SEED}`,
          timestampSeconds: null,
          headers: [],
          event: null,
        },
        Date.now(),
      );
      const result = await postOnce(new URL(ingressUrl), delivery.headers, delivery.body);

      expect(result.status, `${why}: ${result.body}`).toBe(202);
      const { delivery_id: id } = JSON.parse(result.body) as { delivery_id: string };
      const stored = await entry(relay, id);
      expect(stored.label, why).toBe('Accepted');
      expect(Buffer.from(stored.payload!, 'utf8').equals(delivery.body), why).toBe(true);
      // Every byte of the file is sent; Linear's only change is its inserted timestamp field.
      const withoutInserted =
        sender.scheme === 'linear'
          ? Buffer.from(delivery.body.toString('utf8').replace(/,?"webhookTimestamp":\d{13}/, ''))
          : delivery.body;
      expect(withoutInserted.equals(body), why).toBe(true);
      if (shape.size !== null) expect(delivery.body.length, why).toBe(MAX_BODY_BYTES);
    }
  });

  it(`the CLI itself: a ${MAX_BODY_BYTES}-byte file with a BOM and non-ASCII text`, async () => {
    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);
    const body = randomJsonBody(seededRandom(SEED), {
      object: true,
      nonAscii: true,
      size: MAX_BODY_BYTES,
      bom: true,
    });

    const run = await runSend([ingressUrl, '--body', bodyFile(body), ...schemeFlags(sender)]);

    const stored = await entry(relay, deliveryIdOf(run));
    expect(Buffer.from(stored.payload!, 'utf8').equals(body)).toBe(true);
    expect(stored.size).toBe(MAX_BODY_BYTES);
  });
});
