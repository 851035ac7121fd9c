import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the handler saw it: raw header pairs in order, the exact body bytes. */
export interface Received {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Buffer;
  /** What the handler answered. */
  status: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A developer's webhook handler on 127.0.0.1: a real HTTP server on a free port that records
 * every request and answers what `answer` says (by default 200 "ok"). It can be stopped and
 * started again on the same port, as a laptop's handler is during a test session.
 */
export class LocalHandler {
  readonly received: Received[] = [];
  answer: (request: Omit<Received, 'status'>) => Answer = () => ({ status: 200, body: 'ok' });
  /** Requests whose body has arrived, answered or not yet (see `delayMs`). */
  arrived = 0;
  /** How long the handler thinks before it answers. */
  delayMs = 0;
  private server: Server | null = null;
  private portNumber = 0;

  get url(): string {
    return `http://127.0.0.1:${this.portNumber}/webhooks`;
  }

  get port(): number {
    return this.portNumber;
  }

  /** `host`: another local address to listen on (a handler reached by a name, not by loopback). */
  async start(port = this.portNumber, host = '127.0.0.1'): Promise<this> {
    const server = createServer((req, res) => {
      void readAll(req).then(async (body) => {
        this.arrived += 1;
        if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
        const request = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: pairs(req),
          body,
        };
        const answer = this.answer(request);
        this.received.push({ ...request, status: answer.status });
        res.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' });
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.server = server;
    this.portNumber = (server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening and drops open connections: the handler is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function pairs(req: IncomingMessage): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    out.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
  }
  return out;
}

/** The first value of a header, by name in any case; null when absent. */
export function header(request: Pick<Received, 'headers'>, name: string): string | null {
  const lower = name.toLowerCase();
  return request.headers.find(([n]) => n.toLowerCase() === lower)?.[1] ?? null;
}

export async function startHandler(): Promise<LocalHandler> {
  return new LocalHandler().start(0);
}
