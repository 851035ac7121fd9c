import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import {
  createSignatureWebhook,
  deleteAllWebhooks,
  post,
} from '../signatures/support/relay-calls.js';
import { genuineDelivery, SENDERS } from '../signatures/support/senders.js';
import { header, LocalHandler } from './support/handler.js';
import { startForward } from './support/forward-cli.js';

const sender = (scheme: string) => SENDERS.find((s) => s.scheme === scheme)!;

/**
 * Issue 24, item 3: a signature made with a webhook's secret goes to a loopback handler only,
 * unless the call allows remote signing; a GitLab token (the secret itself) never goes elsewhere.
 * "Remote" here is this machine reached by its host name: a name, not a loopback address, so the
 * relay treats it as any other host, and the test needs no network.
 */
describe('signing a forwarded delivery for a handler that is not loopback', () => {
  let relay: TestRelay;
  let handler: LocalHandler;
  let remoteUrl: string;
  beforeAll(async () => {
    relay = await startTestRelay();
    const { address } = await lookup(hostname());
    handler = await new LocalHandler().start(0, address);
    remoteUrl = `http://${hostname()}:${handler.port}/webhooks`;
  });
  afterEach(() => deleteAllWebhooks(relay));
  afterAll(async () => {
    await handler.stop();
    await relay.stop();
  });

  async function stored(scheme: string): Promise<string> {
    const provider = sender(scheme);
    const hook = await createSignatureWebhook(relay, provider);
    const genuine = genuineDelivery(provider);
    const sent = await post(hook.ingressUrl, genuine.body, genuine.headers);
    expect(sent.status).toBe(202);
    return sent.body.delivery_id!;
  }

  const forward = (id: string, input: Omit<MethodInput<'deliveries.forward'>, 'id'>) =>
    relay.call('deliveries.forward', { id, ...input });
  const refusal = (id: string, input: Omit<MethodInput<'deliveries.forward'>, 'id'>) =>
    relay.callError('deliveries.forward', { id, ...input });

  it('refuses to sign for another host without allowRemoteSigning, saying why; nothing is sent or recorded', async () => {
    const id = await stored('stripe');
    const before = handler.received.length;
    const refused = await refusal(id, { url: remoteUrl });
    expect(refused).toMatchObject({ code: 'forbidden', path: 'allowRemoteSigning' });
    expect(refused.message).toContain(`Signing for ${hostname()}:${handler.port} is refused`);
    expect(handler.received.length).toBe(before);
    const attempts = await relay.call('deliveries.attempts', { id });
    expect(attempts.items).toEqual([]);

    const documentation = await refusal(id, { url: 'https://192.0.2.1/hooks' });
    expect(documentation.code).toBe('forbidden');
  });

  it('signs for every spelling of loopback without being asked', async () => {
    const id = await stored('stripe');
    for (const url of [
      'http://localhost:9/hooks',
      'http://[::1]:9/hooks',
      'http://127.8.9.10:9/',
    ]) {
      const sent = await forward(id, { url });
      expect(sent.attempt.signed, url).toBe(true);
    }
  });

  it('signs for another host when the call allows it, and sends unsigned without it', async () => {
    const id = await stored('stripe');
    const signed = await forward(id, { url: remoteUrl, allowRemoteSigning: true });
    expect(signed.attempt).toMatchObject({ status: 200, signed: true });
    expect(header(handler.received.at(-1)!, 'stripe-signature')).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const unsigned = await forward(id, { url: remoteUrl, sign: false });
    expect(unsigned.attempt).toMatchObject({ status: 200, signed: false });
    expect(header(handler.received.at(-1)!, 'stripe-signature')).toBeNull();
  });

  it("never sends a GitLab token webhook's secret to another host, even when remote signing is allowed", async () => {
    const id = await stored('gitlab');
    const before = handler.received.length;
    for (const input of [{ url: remoteUrl }, { url: remoteUrl, allowRemoteSigning: true }]) {
      const refused = await refusal(id, input);
      expect(refused).toMatchObject({ code: 'forbidden', path: 'sign' });
      expect(refused.message).toContain(
        "its X-Gitlab-Token is the webhook's secret itself, which goes to nobody but GitLab",
      );
    }
    expect(handler.received.length).toBe(before);
    // Unsigned, it goes: without the token.
    const unsigned = await forward(id, { url: remoteUrl, sign: false });
    expect(unsigned.attempt).toMatchObject({ status: 200, signed: false });
    expect(header(handler.received.at(-1)!, 'x-gitlab-token')).toBeNull();
  });

  it('hookport forward refuses to sign for another host unless --allow-remote-signing, and forwards with it', async () => {
    const provider = sender('slack');
    const hook = await createSignatureWebhook(relay, provider);
    const refused = startForward(relay, [hook.webhook.name, '--to', remoteUrl, '--from-now']);
    expect(await refused.exited).toBe(2);
    expect(refused.stderr()).toContain('is refused');
    expect(refused.stderr()).toContain('--allow-remote-signing');

    const allowed = startForward(relay, [
      hook.webhook.name,
      '--to',
      remoteUrl,
      '--from-now',
      '--allow-remote-signing',
    ]);
    try {
      await allowed.waitForLine(/^Forwarding .* signed as slack/);
      const genuine = genuineDelivery(provider);
      const sent = await post(hook.ingressUrl, genuine.body, genuine.headers);
      await allowed.waitForLine(new RegExp(`${sent.body.delivery_id!}.*→  200`));
      expect(header(handler.received.at(-1)!, 'x-slack-signature')).toMatch(/^v0=[0-9a-f]{64}$/);
    } finally {
      allowed.child.kill('SIGINT');
      await allowed.exited;
    }
  }, 90_000);
});
