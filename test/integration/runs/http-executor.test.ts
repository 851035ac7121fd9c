import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createAutomation,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A receiving factory on 127.0.0.1 that answers each request with the next scripted status. */
async function startReceiver(statuses: number[]): Promise<{
  url: string;
  received: Received[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'run accepted' : `failure ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/runs`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(storeKinds)('the http executor (%s)', (storeKind) => {
  let relay: TestRelay;
  let send: (body: string) => Promise<string>;
  let closeReceiver: (() => Promise<void>) | null;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
    closeReceiver = null;
    const created = await relay.createWebhook({ name: 'linear' });
    await createAutomation(relay, {
      name: 'forward',
      prompt: 'Act on the issue.',
      triggers: [webhookTrigger([created.webhook.uid])],
    });
    send = async (body) => {
      const sent = await postDelivery(created.ingressUrl, body, bearer(created.secret));
      return (await getDelivery(relay, sent.body.delivery_id!)).runIds[0]!;
    };
  });
  afterEach(async () => {
    await relay.stop();
    await closeReceiver?.();
  });

  it('POSTs the prompt and the raw payload to the factory URL; 2xx is success', async () => {
    const receiver = await startReceiver([200]);
    closeReceiver = receiver.close;
    await setExecutor(relay, { kind: 'http', url: receiver.url });
    const raw = '{ "issue" : { "id": 1.0, "title": "caf\u00e9" } }';
    const run = await waitForRun(relay, await send(raw));
    expect(run).toMatchObject({
      status: 'succeeded',
      error: null,
      output: 'HTTP 200\nrun accepted',
    });

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'idempotency-key': run.id,
      'x-hookport-run-id': run.id,
      'x-hookport-delivery-id': run.deliveryId,
    });
    expect(request!.headers.authorization).toBeUndefined();
    const text = request!.body.toString('utf8');
    // The payload is spliced in byte for byte (spacing and 1.0 kept), not re-serialized.
    expect(text.endsWith(`,"payload":${raw}}`)).toBe(true);
    expect(JSON.parse(text)).toEqual({
      run_id: run.id,
      automation_id: run.automationId,
      delivery_id: run.deliveryId,
      webhook_uid: run.webhookUid,
      // A token webhook without an eventTypePath names no event type.
      event_type: null,
      prompt: run.input,
      payload: { issue: { id: 1, title: 'caf\u00e9' } },
    });
  });

  it('retries 5xx answers with backoff and succeeds when the factory recovers', async () => {
    const receiver = await startReceiver([503, 500, 201]);
    closeReceiver = receiver.close;
    await setExecutor(relay, {
      kind: 'http',
      url: receiver.url,
      maxAttempts: 5,
      backoffSeconds: 0.05,
    });
    const run = await waitForRun(relay, await send('{"a":1}'));
    expect(run).toMatchObject({ status: 'succeeded', output: 'HTTP 201\nrun accepted' });
    expect(receiver.received).toHaveLength(3);
    // Every attempt carries the same idempotency key: the receiver can tell a retry.
    expect(new Set(receiver.received.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  });

  it('gives up after the attempt limit and keeps the last answer', async () => {
    const receiver = await startReceiver([502, 502, 502, 200]);
    closeReceiver = receiver.close;
    await setExecutor(relay, {
      kind: 'http',
      url: receiver.url,
      maxAttempts: 3,
      backoffSeconds: 0.05,
    });
    const run = await waitForRun(relay, await send('{"a":2}'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'gave up after 3 attempts: HTTP 502',
      output: 'HTTP 502\nfailure 502',
      httpStatus: 502,
      exitCode: null,
    });
    expect(receiver.received).toHaveLength(3);
  });

  it('does not retry an answer that will not change (4xx)', async () => {
    const receiver = await startReceiver([422, 200]);
    closeReceiver = receiver.close;
    await setExecutor(relay, { kind: 'http', url: receiver.url, backoffSeconds: 0.05 });
    const run = await waitForRun(relay, await send('{"a":3}'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'HTTP 422 (not retried)',
      httpStatus: 422,
    });
    expect(receiver.received).toHaveLength(1);
  });

  it('retries network errors and reports the cause, never the URL', async () => {
    const receiver = await startReceiver([]);
    await receiver.close(); // nothing listens on that port any more
    await setExecutor(relay, {
      kind: 'http',
      url: `${receiver.url}?token=s3cret`,
      maxAttempts: 2,
      backoffSeconds: 0.05,
    });
    const run = await waitForRun(relay, await send('{"a":4}'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'gave up after 2 attempts: ECONNREFUSED',
      httpStatus: null,
    });
    expect(relay.logs.join('\n')).not.toContain('s3cret');
  });
});
