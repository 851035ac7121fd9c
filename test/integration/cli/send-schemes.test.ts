import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, entry } from '../signatures/support/relay-calls.js';
import { SENDERS } from '../signatures/support/senders.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';
import { schemeFlags } from './support/scheme-flags.js';

/** A sample file as an operator would write it: indented, non-ASCII, a final newline. */
const SAMPLE = '{\n  "event": "ping",\n  "note": "caf\u00e9 \u2603"\n}\n';

describe('hookport send --scheme, against a running relay', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    removeBodyFiles();
    await relay.stop();
  });

  // Concurrent: each run is a process start; 13 webhooks stay under the factory's 20.
  it.concurrent.for(SENDERS.map((s) => [s.scheme, s] as const))(
    '%s: signs as the provider does; the relay accepts the exact bytes',
    async ([, sender], { expect }) => {
      const { ingressUrl } = await createSignatureWebhook(relay, sender);
      const id = `evt-${sender.scheme}`;

      const run = await runSend([
        ingressUrl,
        '--body',
        bodyFile(SAMPLE),
        ...schemeFlags(sender),
        '--id',
        id,
      ]);

      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toContain(sender.secret);
      const logged = await entry(relay, deliveryIdOf(run));
      expect(logged.label).toBe('Accepted');
      expect(logged).toMatchObject(
        sender.deliveryHeader === null
          ? { identity: id, identitySource: 'x-service-delivery-id' }
          : { identity: id, identitySource: 'provider-header' },
      );
      if (sender.scheme === 'linear') {
        // Linear's timestamp goes in the body, just before the closing brace; nothing else moves.
        const ms = /"webhookTimestamp":(\d{13})/.exec(logged.payload!)?.[1];
        expect(logged.payload).toBe(
          SAMPLE.replace('\u2603"\n}', `\u2603","webhookTimestamp":${ms}\n}`),
        );
        expect(Math.abs(Number(ms) - Date.now())).toBeLessThan(30_000);
        expect(run.stderr).toMatch(/added "webhookTimestamp"/);
      } else {
        expect(logged.payload).toBe(SAMPLE);
      }
    },
  );

  it('without --id, a provider that always sends a delivery ID gets a fresh one each time', async () => {
    const github = SENDERS.find((s) => s.scheme === 'github')!;
    const { ingressUrl } = await createSignatureWebhook(relay, github);
    const file = bodyFile(SAMPLE);

    const first = await runSend([ingressUrl, '--body', file, ...schemeFlags(github)]);
    const second = await runSend([ingressUrl, '--body', file, ...schemeFlags(github)]);

    const [a, b] = [
      await entry(relay, deliveryIdOf(first)),
      await entry(relay, deliveryIdOf(second)),
    ];
    expect([a.label, b.label]).toEqual(['Accepted', 'Accepted']);
    expect(a.identity).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(a.identity).not.toBe(b.identity);
  });

  it('without --id, a scheme with no delivery header falls back to the body: the same file twice is a Duplicate', async () => {
    const stripe = SENDERS.find((s) => s.scheme === 'stripe')!;
    const { ingressUrl } = await createSignatureWebhook(relay, stripe);
    const file = bodyFile(SAMPLE);

    const first = await runSend([ingressUrl, '--body', file, ...schemeFlags(stripe)]);
    const second = await runSend([ingressUrl, '--body', file, ...schemeFlags(stripe)]);

    expect((await entry(relay, deliveryIdOf(first))).identitySource).toBe('body-sha256');
    expect((await entry(relay, deliveryIdOf(second))).label).toBe('Duplicate');
  });

  it('the wrong secret: prints 401 and the error body on one line, exits 1, never prints a secret', async () => {
    const sender = SENDERS.find((s) => s.scheme === 'standard-webhooks')!;
    const { ingressUrl } = await createSignatureWebhook(relay, sender);

    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile(SAMPLE),
      ...schemeFlags(sender, sender.otherSecret),
    ]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      '401 {"error":{"code":"unauthorized","message":"Authentication failed for this webhook."}}\n',
    );
    expect(run.stdout + run.stderr).not.toContain(sender.otherSecret.slice('whsec_'.length));
  });
});
