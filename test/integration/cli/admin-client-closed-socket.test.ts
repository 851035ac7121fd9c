import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../src/main/cli/admin-client.js';
import { ApiError } from '../../../src/shared/errors.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

const REQUEST_LINE = /^(GET|POST|PUT|PATCH|DELETE) /;

/**
 * A TCP hop in front of the relay's admin listener that closes a kept-alive connection the moment
 * its next request arrives, before the relay sees it: what a client meets when the relay's idle
 * timeout closes the connection as a request goes out (a race of a few ms, made certain here).
 */
function cuttingHop(upstreamPort: number): {
  server: Server;
  requests: string[];
  cut: () => void;
  cuts: () => number;
} {
  const requests: string[] = [];
  let cuts = 0;
  let cutNext = false;
  const server = createServer((client: Socket) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    let onThisConnection = 0;
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      if (REQUEST_LINE.test(text)) {
        onThisConnection++;
        if (cutNext && onThisConnection > 1) {
          cutNext = false;
          cuts++;
          upstream.destroy();
          client.resetAndDestroy();
          return;
        }
        requests.push(text.slice(0, text.indexOf(' HTTP/')));
        // The relay answers only to its own host and port (its Host check).
        const host = text.replace(/\r\nhost: [^\r]*/i, `\r\nhost: 127.0.0.1:${upstreamPort}`);
        upstream.write(Buffer.from(host, 'latin1'));
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  return { server, requests, cut: () => (cutNext = true), cuts: () => cuts };
}

describe('the admin client, when the relay closes a kept-alive connection under a request', () => {
  let relay: TestRelay;
  let hop: ReturnType<typeof cuttingHop>;
  let client: AdminClient;

  beforeAll(async () => {
    relay = await startTestRelay();
    hop = cuttingHop(Number(new URL(relay.adminUrl).port));
    await new Promise<void>((resolve) => hop.server.listen(0, '127.0.0.1', resolve));
    const { port } = hop.server.address() as { port: number };
    client = new AdminClient(`http://127.0.0.1:${port}`, relay.adminToken);
  });
  afterAll(async () => {
    hop.server.close();
    await relay.stop();
  });

  /** fetch opens a second connection for a call right after the first; the third reuses one. */
  const keptAlive = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) await client.call('webhooks.list', {});
    hop.requests.length = 0;
  };

  it('sends a read once more, on a new connection, and answers it', async () => {
    await keptAlive();
    hop.cut();
    const listed = await client.call('webhooks.list', {});
    expect(listed.items).toEqual([]);
    // The cut request never reached the relay; the one sent again did.
    expect(hop.cuts()).toBe(1);
    expect(hop.requests).toEqual(['GET /api/webhooks']);
  });

  it('never sends a write twice: it says it could not reach the relay, and nothing was made', async () => {
    await keptAlive();
    hop.cut();
    const refused = await client.call('webhooks.create', { name: 'once' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toMatch(
      /^Cannot reach the relay at http:\/\/127\.0\.0\.1:\d+ \(/,
    );
    expect(hop.cuts()).toBe(2);
    expect(hop.requests).toEqual([]);
    expect((await relay.call('webhooks.list', {})).items).toEqual([]);
  });
});
