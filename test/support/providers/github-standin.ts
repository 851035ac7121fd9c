import { createHmac, randomUUID } from 'node:crypto';
import { postToHook } from './deliver.js';
import { ProviderStandin, type Answer, type ProviderRequest } from './standin-server.js';

/**
 * A stand-in for GitHub's REST API at the boundary we do not own (the relay's provider links
 * talk to it through Octokit). Shaped after GitHub's REST description (docs.github.com/rest,
 * "Repository webhooks" and "Organization webhooks", API version 2022-11-28): GET a hook, PATCH
 * its config, list its deliveries (newest first, cursor pagination in the Link header), and POST
 * …/deliveries/{id}/attempts, which sends the stored delivery again, as GitHub does, with its
 * real headers (X-GitHub-Event, X-GitHub-Delivery: the same GUID, X-Hub-Signature-256).
 */

export interface StandinHook {
  id: number;
  /** `acme/api` or `org:acme` */
  owner: string;
  active: boolean;
  events: string[];
  config: { url: string; content_type: string; insecure_ssl: string; secret?: string };
}

export interface StandinDelivery {
  id: number;
  guid: string;
  hookId: number;
  deliveredAt: number;
  redelivery: boolean;
  statusCode: number;
  event: string;
  action: string | null;
  body: Buffer;
}

export class GitHubStandin extends ProviderStandin {
  readonly hooks = new Map<number, StandinHook>();
  readonly deliveries: StandinDelivery[] = [];
  /** The most deliveries one page lists, whatever per_page asks (so pagination is exercised). */
  pageSize = 3;
  /** Where the Link header sends the next page; another origin stands for a hostile answer. */
  nextPageOrigin: string | null = null;
  private nextId = 1000;

  constructor(
    private readonly token: string,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  addHook(
    owner: string,
    url: string,
    secret: string,
    changes: Partial<StandinHook> = {},
  ): StandinHook {
    const hook: StandinHook = {
      id: this.nextId++,
      owner,
      active: true,
      events: ['push', 'issues'],
      config: { url, content_type: 'json', insecure_ssl: '0', secret },
      ...changes,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  /** GitHub sends an event to the hook now; answers the recorded delivery. */
  async send(
    hook: StandinHook,
    event: string,
    payload: Record<string, unknown>,
    options: { recordAsFailed?: boolean; relayAsleep?: boolean } = {},
  ): Promise<StandinDelivery> {
    const delivery: StandinDelivery = {
      id: this.nextId++,
      guid: randomUUID(),
      hookId: hook.id,
      deliveredAt: this.now(),
      redelivery: false,
      statusCode: 0,
      event,
      action: typeof payload.action === 'string' ? payload.action : null,
      body: Buffer.from(JSON.stringify(payload)),
    };
    // A sleeping laptop answers nothing: recorded as failing to connect, never sent.
    delivery.statusCode = hook.active && !options.relayAsleep ? await this.post(hook, delivery) : 0;
    // A relay that answered after GitHub's 10 s timeout is recorded failed though it Accepted.
    if (options.recordAsFailed) delivery.statusCode = 504;
    this.deliveries.push(delivery);
    return delivery;
  }

  /** What a redelivery request asked for, in order: the delivery ids the relay asked about. */
  get redeliveryRequests(): string[] {
    return this.server
      .requestsTo('POST', /\/deliveries\/\d+\/attempts$/)
      .map((r) => /\/deliveries\/(\d+)\/attempts$/.exec(r.path)![1]!);
  }

  private post(hook: StandinHook, delivery: StandinDelivery): Promise<number> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/standin',
      'x-github-event': delivery.event,
      'x-github-delivery': delivery.guid,
      'x-github-hook-id': String(hook.id),
    };
    if (hook.config.secret) {
      const mac = createHmac('sha256', hook.config.secret).update(delivery.body).digest('hex');
      headers['x-hub-signature-256'] = `sha256=${mac}`;
    }
    return postToHook(hook.config.url, headers, delivery.body).then((r) => r.statusCode);
  }

  protected route(request: ProviderRequest): Answer {
    const auth = request.headers.authorization ?? '';
    if (auth !== `token ${this.token}` && auth !== `Bearer ${this.token}`) {
      return { status: 401, body: { message: 'Bad credentials' } };
    }
    const match =
      /^\/(?:repos\/([^/]+\/[^/]+)|orgs\/([^/]+))\/hooks\/(\d+)(\/config|\/deliveries(?:\/(\d+)\/attempts)?)?$/.exec(
        request.path,
      );
    const hook = match ? this.hooks.get(Number(match[3])) : undefined;
    const owner = match ? (match[1] ?? `org:${match[2]}`) : null;
    if (!match || !hook || hook.owner !== owner)
      return { status: 404, body: { message: 'Not Found' } };
    const [, , , , tail, deliveryId] = match;
    if (tail === undefined && request.method === 'GET')
      return { status: 200, body: this.hookJson(hook) };
    if (tail === '/config' && request.method === 'PATCH') {
      const body = request.body as Partial<StandinHook['config']>;
      hook.config = { ...hook.config, ...body };
      return { status: 200, body: this.configJson(hook) };
    }
    if (tail === '/deliveries' && request.method === 'GET')
      return this.listDeliveries(hook, request);
    if (deliveryId !== undefined && request.method === 'POST') {
      const original = this.deliveries.find(
        (d) => d.id === Number(deliveryId) && d.hookId === hook.id,
      );
      if (!original) return { status: 404, body: { message: 'Not Found' } };
      this.server.later(this.redeliver(hook, original));
      return { status: 202, body: {} };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  private async redeliver(hook: StandinHook, original: StandinDelivery): Promise<void> {
    const attempt: StandinDelivery = {
      ...original,
      id: this.nextId++,
      deliveredAt: this.now(),
      redelivery: true,
    };
    attempt.statusCode = await this.post(hook, attempt);
    this.deliveries.push(attempt);
  }

  private listDeliveries(hook: StandinHook, request: ProviderRequest): Answer {
    const all = this.deliveries.filter((d) => d.hookId === hook.id).sort((a, b) => b.id - a.id);
    const perPage = Math.min(Number(request.query.get('per_page') ?? 30), this.pageSize);
    const cursor = request.query.get('cursor');
    const start = cursor ? all.findIndex((d) => d.id < Number(cursor)) : 0;
    const page = start < 0 ? [] : all.slice(start, start + perPage);
    const headers: Record<string, string> = {};
    const last = page[page.length - 1];
    if (last && all.indexOf(last) < all.length - 1) {
      const next = new URL(`${this.nextPageOrigin ?? this.url}${request.path}`);
      next.searchParams.set('per_page', String(perPage));
      next.searchParams.set('cursor', String(last.id));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    return {
      status: 200,
      headers,
      body: page.map((d) => ({
        id: d.id,
        guid: d.guid,
        delivered_at: new Date(d.deliveredAt).toISOString(),
        redelivery: d.redelivery,
        duration: 0.1,
        status: d.statusCode >= 200 && d.statusCode < 300 ? 'OK' : 'failed to connect to host',
        status_code: d.statusCode,
        event: d.event,
        action: d.action,
        installation_id: null,
        repository_id: 1,
      })),
    };
  }

  private configJson(hook: StandinHook) {
    return { ...hook.config, secret: hook.config.secret ? '********' : undefined };
  }

  private hookJson(hook: StandinHook) {
    return {
      type: 'Repository',
      id: hook.id,
      name: 'web',
      active: hook.active,
      events: hook.events,
      config: this.configJson(hook),
    };
  }
}
