import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { openEventStream } from '../../support/event-stream.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { createSignatureWebhook, post } from '../signatures/support/relay-calls.js';
import { genuineDelivery, SENDERS } from '../signatures/support/senders.js';
import { header, startHandler, type Answer, type LocalHandler } from './support/handler.js';

/** Every byte the relay keeps on disk: the SQLite file and its write-ahead log. */
const databaseBytes = (relay: TestRelay): string =>
  ['hookport.sqlite', 'hookport.sqlite-wal']
    .map((name) => {
      try {
        return readFileSync(join(relay.dataDir, name)).toString('latin1');
      } catch {
        return '';
      }
    })
    .join('');

/** A server that accepts the request and then says nothing until it is closed. */
async function silentServer(): Promise<{ url: string; server: Server }> {
  const server = createServer(() => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe('POST /api/deliveries/:id/forward and its attempts', () => {
  let relay: TestRelay;
  let handler: LocalHandler;
  beforeEach(async () => {
    relay = await startTestRelay({ forwardTimeoutMs: 1_000 });
    handler = await startHandler();
  });
  afterEach(async () => {
    await handler.stop();
    await relay.stop();
  });

  async function tokenDelivery(headers: Record<string, string> = {}, body = '{"order":42}') {
    const hook = await relay.createWebhook({
      name: `orders-${Math.random().toString(36).slice(2, 8)}`,
    });
    // node:http, not fetch: fetch refuses to send a Connection header, which senders do send.
    const sent = await post(hook.ingressUrl, body, { ...bearer(hook.secret), ...headers });
    expect(sent.status).toBe(202);
    return { hook, id: sent.body.delivery_id! };
  }

  const forward = (id: string, input: Omit<MethodInput<'deliveries.forward'>, 'id'>) =>
    relay.call('deliveries.forward', { id, ...input });
  const attempts = (id: string) => relay.call('deliveries.attempts', { id });

  it('records a handler answering 500 and then 200 as two attempts, newest first', async () => {
    const { id } = await tokenDelivery();
    let calls = 0;
    handler.answer = (): Answer =>
      ++calls === 1
        ? { status: 500, body: 'handler crashed: TypeError', headers: { 'x-trace': 'a1' } }
        : { status: 200, body: '{"ok":true}', headers: { 'content-type': 'application/json' } };
    expect((await forward(id, { url: handler.url })).attempt.status).toBe(500);
    expect((await forward(id, { url: handler.url })).attempt.status).toBe(200);

    const listed = (await attempts(id)).items;
    expect(listed.map((a) => a.status)).toEqual([200, 500]);
    expect(listed[1]).toMatchObject({
      url: handler.url,
      body: 'handler crashed: TypeError',
      bodyTruncated: false,
      error: null,
      edited: false,
      signed: false,
      delivered: true,
    });
    expect(listed[1]!.headers).toContainEqual(['x-trace', 'a1']);
    expect(listed[0]!.body).toBe('{"ok":true}');
    expect(listed[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('never forwards credentials: Authorization, Cookie and signature headers stay behind', async () => {
    const { hook, id } = await tokenDelivery({
      Cookie: 'session=abc123',
      'X-Hub-Signature-256': 'sha256=deadbeef',
      'X-Custom': 'kept',
      Connection: 'keep-alive, X-Hop',
      'X-Hop': 'hop-by-hop by Connection',
    });
    await forward(id, { url: handler.url });
    const got = handler.received[0]!;
    const names = got.headers.map(([n]) => n.toLowerCase());
    for (const gone of ['authorization', 'cookie', 'x-hub-signature-256', 'x-hop'])
      expect(names).not.toContain(gone);
    expect(header(got, 'X-Custom')).toBe('kept');
    expect(header(got, 'Host')).toBe(`127.0.0.1:${handler.port}`);
    expect(JSON.stringify(got.headers)).not.toContain(hook.secret!);
    expect(JSON.stringify(got.headers)).not.toContain('[redacted]');
    expect(got.body.toString()).toBe('{"order":42}');
  });

  it('keeps no signature or token in attempts, logs or the database', async () => {
    const gitlab = SENDERS.find((s) => s.scheme === 'gitlab')!;
    const github = SENDERS.find((s) => s.scheme === 'github')!;
    const sentSignatures: string[] = [];
    for (const sender of [gitlab, github]) {
      const hook = await createSignatureWebhook(relay, sender);
      const genuine = genuineDelivery(sender);
      const sent = await post(hook.ingressUrl, genuine.body, genuine.headers);
      await forward(sent.body.delivery_id!, { url: handler.url, body: '{"edited":1}' });
      const got = handler.received[handler.received.length - 1]!;
      sentSignatures.push(header(got, sender.signatureHeader)!);
      const [attempt] = (await attempts(sent.body.delivery_id!)).items;
      expect(attempt!.requestHeaders).toContainEqual([sender.signatureHeader, '[redacted]']);
    }
    // GitLab's "signature" is the secret itself; GitHub's is an HMAC of the edited body.
    expect(sentSignatures[0]).toBe(gitlab.secret);
    const stored = databaseBytes(relay);
    const logged = relay.logs.join('\n');
    for (const secret of [...sentSignatures, gitlab.secret, github.secret]) {
      expect(stored).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect(logged).toMatch(
      /\[forward\] dlv_\w+ → http:\/\/127\.0\.0\.1:\d+\/webhooks 200 \d+ ms edited/,
    );
  });

  it('redacts a handler’s Set-Cookie in the attempt, and keeps 64 KB of a long answer', async () => {
    const { id } = await tokenDelivery();
    handler.answer = () => ({
      status: 200,
      body: 'x'.repeat(200_000),
      headers: { 'set-cookie': 'sid=handler-secret', 'content-type': 'text/plain' },
    });
    const { attempt } = await forward(id, { url: handler.url });
    expect(attempt.headers).toContainEqual(['set-cookie', '[redacted]']);
    expect(attempt.body.length).toBe(64 * 1024);
    expect(attempt.bodyTruncated).toBe(true);
    expect(databaseBytes(relay)).not.toContain('handler-secret');
  });

  it('records a handler that is down, or silent past the time limit, as an attempt without a status', async () => {
    const { id } = await tokenDelivery();
    const downUrl = handler.url;
    await handler.stop();
    const refused = (await forward(id, { url: downUrl })).attempt;
    expect(refused).toMatchObject({ status: null, error: 'ECONNREFUSED', delivered: false });

    const silent = await silentServer();
    try {
      const timedOut = (await forward(id, { url: silent.url })).attempt;
      expect(timedOut).toMatchObject({ status: null, error: 'timed out after 1 s' });
      expect(timedOut.durationMs).toBeGreaterThanOrEqual(900);
    } finally {
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it('reports a redirect without following it', async () => {
    const { id } = await tokenDelivery();
    handler.answer = () => ({ status: 307, headers: { location: 'http://127.0.0.1:1/elsewhere' } });
    const { attempt } = await forward(id, { url: handler.url });
    expect(attempt.status).toBe(307);
    expect(attempt.headers).toContainEqual(['location', 'http://127.0.0.1:1/elsewhere']);
    expect(handler.received).toHaveLength(1);
  });

  it('announces each attempt on the event stream', async () => {
    const stream = await openEventStream(relay);
    try {
      const { id } = await tokenDelivery();
      const { attempt } = await forward(id, { url: handler.url });
      await waitFor(
        () => stream.events().some((e) => e.type === 'attempt' && e.attempt.id === attempt.id),
        'the attempt event',
      );
    } finally {
      stream.close();
    }
  });

  it('refuses what it cannot send, saying why', async () => {
    const { hook, id } = await tokenDelivery();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'ftp://127.0.0.1/x' }, 'url: must be an http:// or https:// URL'],
      [{ url: 'localhost:3000' }, 'url: must be an http:// or https:// URL'],
      [{ url: 'http://me:pw@127.0.0.1:3000/' }, 'url: must not carry a user name or password'],
      [{}, 'url:'],
      [{ url: handler.url, body: 'x'.repeat(262_145) }, 'body: must be at most 262144 bytes'],
      [{ url: handler.url, headers: {} }, 'unknown field "headers"'],
    ];
    for (const [input, message] of cases) {
      const refused = await relay.callError('deliveries.forward', { id, ...input });
      expect(refused.code, JSON.stringify(input).slice(0, 80)).toBe('invalid_input');
      expect(refused.message).toContain(message);
    }
    const duplicate = await postDelivery(hook.ingressUrl, '{"order":42}', bearer(hook.secret));
    const refused = await relay.callError('deliveries.forward', {
      id: duplicate.body.delivery_id!,
      url: handler.url,
    });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain(`use the original, ${id}`);
    const missing = await relay.callError('deliveries.forward', {
      id: 'dlv_00000000000000000000000000',
      url: handler.url,
    });
    expect(missing.code).toBe('not_found');

    // The role check is the transport's: a view token's answers are read as HTTP.
    const viewer = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    const token = viewer.value;
    const asViewer = await relay.api(
      'POST',
      `/api/deliveries/${id}/forward`,
      { url: handler.url },
      { token },
    );
    expect(asViewer.status).toBe(403);
    const read = await relay.api('GET', `/api/deliveries/${id}/attempts`, undefined, { token });
    expect(read.status).toBe(200);
    expect(handler.received).toHaveLength(0);
  });
});
