import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, entry } from '../signatures/support/relay-calls.js';
import { SENDERS } from '../signatures/support/senders.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';
import { schemeFlags } from './support/scheme-flags.js';

const shopify = SENDERS.find((s) => s.scheme === 'shopify')!;

describe('hookport send: where the bytes come from and where they go', () => {
  let relay: TestRelay;
  let redirector: Server;
  let redirectorUrl: string;
  let redirectTarget = '';
  beforeAll(async () => {
    relay = await startTestRelay();
    // A server that answers every POST with a redirect to the relay, as a misconfigured proxy might.
    redirector = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { Location: redirectTarget }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    removeBodyFiles();
    await new Promise((resolve) => redirector.close(resolve));
    await relay.stop();
  });

  it('--body - reads standard input, bytes exactly (BOM and all)', async () => {
    const { ingressUrl } = await createSignatureWebhook(relay, shopify);
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"piped":"\u00fc"}\r\n'),
    ]);

    const run = await runSend([ingressUrl, '--body', '-', ...schemeFlags(shopify)], bytes);

    expect(run.code, run.stderr).toBe(0);
    const logged = await entry(relay, deliveryIdOf(run));
    expect(Buffer.from(logged.payload!, 'utf8').equals(bytes)).toBe(true);
  });

  it('a redirect is reported, not followed: nothing reaches the relay', async () => {
    const { webhook, ingressUrl } = await createSignatureWebhook(relay, shopify);
    redirectTarget = ingressUrl;

    const run = await runSend([redirectorUrl, '--body', bodyFile('{}'), ...schemeFlags(shopify)]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe(`307 redirect to ${ingressUrl} (not followed)\n`);
    const log = await relay.call('deliveries.list', { uid: webhook.uid });
    expect(log.items).toEqual([]);
  });
});
