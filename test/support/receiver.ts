import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** Each request's JSON body, in arrival order. */
  received: unknown[];
  close(): Promise<void>;
}

/** A local HTTP endpoint on 127.0.0.1 that answers 204 and keeps every JSON body it is sent. */
export async function startReceiver(): Promise<Receiver> {
  const received: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/alarms`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
