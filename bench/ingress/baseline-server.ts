/**
 * The HTTP side every baseline server of the ingress benchmarks shares, so that the rows differ
 * only in what they do with a body: listening on a free loopback port (printing `{"url"}`),
 * answering the bench's "rss" message, closing on SIGTERM, and never outliving the bench.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export const reply = (res: ServerResponse, status: number, value: unknown): void => {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
};

/** Reads each body whole; one that is not JSON is a 400, the others go to `handle`. */
export function onJsonBody(
  handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        JSON.parse(body.toString('utf8'));
      } catch {
        return reply(res, 400, { error: 'invalid JSON' });
      }
      handle(req, res, body);
    });
  };
}

/** Serves `listener` until SIGTERM, then runs `close` (the server's own store) and exits. */
export function serveBaseline(
  listener: RequestListener,
  close: () => Promise<void> | void = () => undefined,
): void {
  const server = createServer(listener);
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
  });
  process.on('message', (message) => {
    if (message === 'rss') process.send?.({ rss: process.memoryUsage().rss });
  });
  process.on('SIGTERM', () =>
    server.close(() => {
      void Promise.resolve(close()).then(() => process.exit(0));
    }),
  );
  // The benchmark that started this server is gone (killed): no server outlives it.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
