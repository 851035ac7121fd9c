import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, entry, newestEntry } from '../signatures/support/relay-calls.js';
import { SENDERS } from '../signatures/support/senders.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';
import { schemeFlags } from './support/scheme-flags.js';

const github = SENDERS.find((s) => s.scheme === 'github')!;

describe('hookport send --header', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    removeBodyFiles();
    await relay.stop();
  });

  it("adds a header: here the webhook's own delivery-ID header, which beats the provider's", async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, github, {
      deliveryIdHeader: 'X-Event-Key',
    });

    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile('{}'),
      ...schemeFlags(github),
      '--header',
      'X-Event-Key: order-42',
    ]);

    expect(await entry(relay, deliveryIdOf(run))).toMatchObject({
      identity: 'order-42',
      identitySource: 'delivery-id-header',
    });
  });

  it('replaces a signed header of the same name, to send a malformed one on purpose', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);

    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile('{}'),
      ...schemeFlags(github),
      '--header',
      'x-hub-signature-256:sha1=0123',
    ]);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^401 /);
    expect((await newestEntry(relay, webhook.uid)).reason).toMatch(
      /malformed X-Hub-Signature-256 header/,
    );
  });

  it('given twice with one name, sends two header lines (a repeated signature header is refused)', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, github);

    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile('{}'),
      ...schemeFlags(github),
      '--header',
      'X-Hub-Signature-256: sha256=00',
      '--header',
      'X-Hub-Signature-256: sha256=11',
    ]);

    expect(run.code).toBe(1);
    expect((await newestEntry(relay, webhook.uid)).reason).toBe(
      'repeated X-Hub-Signature-256 header',
    );
  });
});
