import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connect } from 'node:net';
import {
  openRaw,
  parseResponses,
  requestHead,
  type RawConnection,
} from '../../support/raw-http.js';
import { startTestRelay, type CreatedWebhook, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

const TRIES = 20;

/**
 * A sender that reads its answer only once it has written its whole request, as many clients
 * and most scripts do: while it writes, what the relay sends waits unread in its socket. The
 * relay's answer must still be there when it looks, never lost to a connection reset.
 */
async function sendWholeRequestThenRead(
  baseUrl: string,
  head: string,
  writeBody: (connection: RawConnection) => Promise<void>,
): Promise<RawConnection> {
  const connection = await openRaw(baseUrl);
  connection.socket.on('error', () => {}); // what a reset would raise; the answer is what counts
  connection.socket.pause();
  connection.socket.write(head);
  await writeBody(connection);
  connection.socket.resume();
  await connection.closed;
  return connection;
}

/** Writes `piece` up to `count` times, waiting for the socket to drain; returns how many went out. */
async function writePieces(
  connection: RawConnection,
  piece: Buffer,
  count: number,
): Promise<number> {
  let written = 0;
  for (; written < count && !connection.socket.destroyed; written++) {
    if (!connection.socket.write(piece)) {
      // Whichever comes first; the other listener goes too (one per wait piled up on the socket).
      await new Promise<void>((resolve) => {
        const done = (): void => {
          connection.socket.off('drain', done).off('close', done);
          resolve();
        };
        connection.socket.on('drain', done).on('close', done);
      });
    }
  }
  return written;
}

const statusOf = (connection: RawConnection): number | null =>
  connection.responses()[0]?.status ?? null;

/**
 * Issue 15: an answer sent before the request's body has ended (401 before the body, 413, a
 * parser's 400) reaches the sender; the relay stops reading the body into anything, drops what
 * still arrives for a bounded time, then closes.
 */
describe.each(storeKinds)('an answer sent while the sender is still writing (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
    hook = await relay.createWebhook({ name: 'early' });
  });
  afterAll(() => relay.stop());

  const path = (): string => `/webhooks/w/${hook.webhook.uid}`;

  it(`reaches a slow sender writing its body in fragments to a wrong token: 401, ${TRIES} of ${TRIES}`, async () => {
    const statuses: Array<number | null> = [];
    for (let i = 0; i < TRIES; i++) {
      const head = requestHead('POST', path(), relay.ingressUrl, [
        ['Authorization', 'Bearer not-the-token'],
        ['Content-Length', String(20 * 1024)],
      ]);
      const connection = await sendWholeRequestThenRead(relay.ingressUrl, head, async (c) => {
        for (let f = 0; f < 20 && !c.socket.destroyed; f++) {
          c.socket.write(Buffer.alloc(1024, 0x20));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      statuses.push(statusOf(connection));
    }
    expect(statuses).toEqual(Array.from({ length: TRIES }, () => 401));
  });

  it(
    `reaches a 100 MB chunked upload that does not stop: 413, ${TRIES} of ${TRIES}`,
    { timeout: 180_000 },
    async () => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const piece = Buffer.concat([
        Buffer.from(`${chunk.length.toString(16)}\r\n`),
        chunk,
        Buffer.from('\r\n'),
      ]);
      const statuses: Array<number | null> = [];
      for (let i = 0; i < TRIES; i++) {
        const head = requestHead('POST', path(), relay.ingressUrl, [
          ['Authorization', `Bearer ${hook.secret}`],
          ['Transfer-Encoding', 'chunked'],
        ]);
        const connection = await sendWholeRequestThenRead(relay.ingressUrl, head, async (c) => {
          await writePieces(c, piece, 100);
          c.socket.write('0\r\n\r\n');
        });
        statuses.push(statusOf(connection));
      }
      expect(statuses).toEqual(Array.from({ length: TRIES }, () => 413));
    },
  );

  it('closes the connection of a sender that goes on writing after its answer, however slowly', async () => {
    // Its own relay, whose 5 s of lingering is shortened (`ingressDeadlines`): the same close, sooner.
    const relay = await startTestRelay({
      ...storeConfig(storeKind),
      ingressDeadlines: { lingerMs: 200 },
    });
    onTestFinished(() => relay.stop());
    const slow = await relay.createWebhook({ name: 'slow-sender' });
    // Half-open allowed: this sender ignores the relay's end of the connection and writes on.
    const socket = connect({
      host: '127.0.0.1',
      port: Number(new URL(relay.ingressUrl).port),
      allowHalfOpen: true,
    });
    socket.on('error', () => {});
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    let open = true;
    socket.once('close', () => (open = false));
    socket.write(
      requestHead('POST', `/webhooks/w/${slow.webhook.uid}`, relay.ingressUrl, [
        ['Authorization', 'Bearer not-the-token'],
        ['Content-Length', String(10 * 1024 * 1024)],
      ]),
    );
    // A byte every 20 ms would take days to finish; the relay does not wait for it.
    while (open) {
      socket.write('x');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(parseResponses(Buffer.concat(received)).map((r) => r.status)).toEqual([401]);
  });

  it('answers CONNECT with 405 instead of dropping the socket', async () => {
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    await connection.closed;
    const [response] = connection.responses();
    expect(response?.status).toBe(405);
    expect(response?.headers.allow).toBe('POST');
    expect(JSON.parse(response!.body)).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('answers a request asking to upgrade with a chunked body with 400, not silence', async () => {
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.write(
      requestHead('POST', path(), relay.ingressUrl, [
        ['Authorization', `Bearer ${hook.secret}`],
        ['Connection', 'Upgrade'],
        ['Upgrade', 'websocket'],
        ['Transfer-Encoding', 'chunked'],
      ]),
    );
    connection.socket.write('zz\r\nnot a chunk\r\n');
    await connection.closed;
    const [response] = connection.responses();
    expect(response?.status).toBe(400);
    expect(JSON.parse(response!.body)).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('keeps the connection after a refusal whose small body it could skip', async () => {
    const connection = await openRaw(relay.ingressUrl);
    const unknown = `/webhooks/w/wh_${'z'.repeat(24)}`;
    const body = '{"padding":"' + 'x'.repeat(1000) + '"}';
    const request = (target: string): string =>
      requestHead('POST', target, relay.ingressUrl, [['Content-Length', String(body.length)]]) +
      body;
    connection.socket.write(request(unknown));
    connection.socket.write(request(unknown));
    await expect.poll(() => connection.responses().length).toBe(2);
    expect(connection.responses().map((r) => r.status)).toEqual([404, 404]);
    expect(connection.socket.destroyed).toBe(false);
    connection.socket.destroy();
  });
});
