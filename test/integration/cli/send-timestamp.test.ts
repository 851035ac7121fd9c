import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, newestEntry } from '../signatures/support/relay-calls.js';
import { nowSeconds, SENDERS } from '../signatures/support/senders.js';
import { bodyFile, removeBodyFiles, runSend } from './support/run-send.js';
import { schemeFlags } from './support/scheme-flags.js';

const timestamped = SENDERS.filter((s) => s.toleranceSeconds !== null);

describe('hookport send --timestamp (a stale or future signature, on purpose)', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    removeBodyFiles();
    await relay.stop();
  });

  it.concurrent.for(timestamped.map((s) => [s.scheme, s] as const))(
    '%s: beyond the tolerance either way → 401 Rejected (auth), exit 1',
    async ([, sender], { expect }) => {
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
      const beyond = sender.toleranceSeconds! + 60;

      for (const offset of [-beyond, beyond]) {
        const run = await runSend([
          ingressUrl,
          '--body',
          bodyFile('{"event":"late"}'),
          ...schemeFlags(sender),
          '--timestamp',
          String(nowSeconds() + offset),
        ]);
        expect(run.code, `offset ${offset}`).toBe(1);
        expect(run.stdout).toMatch(/^401 /);
        const logged = await newestEntry(relay, webhook.uid);
        expect(logged.label).toBe('Rejected (auth)');
        expect(logged.reason).toMatch(/outside the \d+ s tolerance/);
      }
    },
  );

  it('linear: a body that already carries webhookTimestamp is sent as is; --timestamp with it is refused', async () => {
    const linear = SENDERS.find((s) => s.scheme === 'linear')!;
    const { ingressUrl } = await createSignatureWebhook(relay, linear);
    const file = bodyFile(`{"action":"create","webhookTimestamp":${Date.now()}}`);

    const asIs = await runSend([ingressUrl, '--body', file, ...schemeFlags(linear)]);
    const conflicting = await runSend([
      ingressUrl,
      '--body',
      file,
      ...schemeFlags(linear),
      '--timestamp',
      String(nowSeconds()),
    ]);

    expect(asIs.code, asIs.stdout).toBe(0);
    expect(asIs.stderr).toBe('');
    expect(conflicting.code).toBe(2);
    expect(conflicting.stderr).toMatch(/--timestamp: the body already carries webhookTimestamp/);
  });
});
