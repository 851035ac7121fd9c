import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stand-in provider API received: what the relay asked of the provider. */
export interface ProviderRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An answer the test forces for the next `times` requests whose path matches. */
interface Injected {
  path: RegExp;
  times: number;
  answer: Answer | 'hang';
}

/**
 * The HTTP shell every stand-in provider API shares: a real server on a loopback port, the
 * requests it received, forced answers (errors, rate limits, silence) and the work it does after
 * answering (redeliveries), which a test can wait for.
 */
export class StandinServer {
  readonly requests: ProviderRequest[] = [];
  private readonly injected: Injected[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | null = null;
  url = '';

  constructor(private readonly route: (request: ProviderRequest) => Answer | Promise<Answer>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await this.idle();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next `times` requests to a matching path get `answer` ('hang': no answer at all). */
  inject(path: RegExp, answer: Answer | 'hang', times = 1): void {
    this.injected.push({ path, times, answer });
  }

  /** Work begun after an answer (a redelivery POST), tracked so tests can wait for it. */
  later(work: Promise<unknown>): void {
    const tracked = work.finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  requestsTo(method: string, path: RegExp): ProviderRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://standin');
    let body: unknown = text;
    if ((req.headers['content-type'] ?? '').includes('json') && text !== '')
      body = JSON.parse(text);
    if ((req.headers['content-type'] ?? '').includes('x-www-form-urlencoded'))
      body = Object.fromEntries(new URLSearchParams(text));
    const request: ProviderRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
    };
    this.requests.push(request);
    const forced = this.injected.find((i) => i.times > 0 && i.path.test(request.path));
    let answer: Answer | 'hang';
    if (forced) {
      forced.times--;
      answer = forced.answer;
    } else {
      answer = await this.route(request);
    }
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  }
}

/**
 * A provider API stand-in: its own loopback server answering through `route`. Each provider's
 * stand-in says which published description its routes follow.
 */
export abstract class ProviderStandin {
  readonly server = new StandinServer((request) => this.route(request));

  protected constructor(protected readonly now: () => number) {}

  get url(): string {
    return this.server.url;
  }

  async start(): Promise<this> {
    await this.server.start();
    return this;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  protected abstract route(request: ProviderRequest): Answer | Promise<Answer>;
}
