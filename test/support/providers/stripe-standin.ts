import { createHmac, randomBytes } from 'node:crypto';
import { postToHook } from './deliver.js';
import { ProviderStandin, type Answer, type ProviderRequest } from './standin-server.js';

/**
 * A stand-in for Stripe's API at the boundary we do not own (the relay's provider links talk to
 * it through the `stripe` library). Shaped after Stripe's API reference (docs.stripe.com/api):
 * "Webhook Endpoints" (retrieve; update `url` and `disabled`, form-encoded as Stripe takes it),
 * "Events" (list newest first with `delivery_success` and `created[gte]`, cursor pagination
 * through `starting_after` and `has_more`), and `POST /v1/events/{id}/retry` with
 * `for_webhook_endpoint`, the resend the Stripe CLI's `stripe events resend` makes. Deliveries are
 * POSTed as docs.stripe.com/webhooks describes: the event JSON, signed in `Stripe-Signature`
 * (`t=<seconds>,v1=<HMAC-SHA256 of "t.body" with the endpoint's whsec_ secret>`), its
 * `pending_webhooks` as it stands at each attempt (so a retry's body differs from the first).
 */

export interface StripeStandinEndpoint {
  id: string;
  url: string;
  secret: string;
  status: 'enabled' | 'disabled';
  enabledEvents: string[];
}

export interface StripeStandinEvent {
  id: string;
  type: string;
  created: number;
  data: Record<string, unknown>;
  /** Endpoint id → whether an attempt to it was answered 2xx. */
  delivered: Map<string, boolean>;
}

const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

export class StripeStandin extends ProviderStandin {
  readonly endpoints = new Map<string, StripeStandinEndpoint>();
  readonly events: StripeStandinEvent[] = [];
  /** The most events one page lists, whatever `limit` asks (so pagination is exercised). */
  pageSize = 3;

  constructor(
    private readonly key: string,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  addEndpoint(url: string, secret: string, enabledEvents = ['*']): StripeStandinEndpoint {
    const endpoint: StripeStandinEndpoint = {
      id: id('we'),
      url,
      secret,
      status: 'enabled',
      enabledEvents,
    };
    this.endpoints.set(endpoint.id, endpoint);
    return endpoint;
  }

  /** An event happens: Stripe sends it to every enabled endpoint that listens to its type. */
  async emit(type: string, data: Record<string, unknown>): Promise<StripeStandinEvent> {
    const event: StripeStandinEvent = {
      id: id('evt'),
      type,
      created: Math.floor(this.now() / 1000),
      data,
      delivered: new Map(),
    };
    this.events.push(event);
    for (const endpoint of this.endpoints.values()) {
      if (endpoint.status !== 'enabled' || !this.listens(endpoint, type)) continue;
      event.delivered.set(endpoint.id, false);
    }
    for (const endpointId of [...event.delivered.keys()]) {
      await this.attempt(event, this.endpoints.get(endpointId)!);
    }
    return event;
  }

  /** The event ids the relay asked Stripe to send again, in order. */
  get retryRequests(): string[] {
    return this.server
      .requestsTo('POST', /^\/v1\/events\/[^/]+\/retry$/)
      .map((r) => /^\/v1\/events\/([^/]+)\/retry$/.exec(r.path)![1]!);
  }

  private listens(endpoint: StripeStandinEndpoint, type: string): boolean {
    return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
  }

  private eventJson(event: StripeStandinEvent) {
    return {
      id: event.id,
      object: 'event',
      api_version: '2024-06-20',
      created: event.created,
      data: { object: event.data },
      livemode: false,
      pending_webhooks: [...event.delivered.values()].filter((done) => !done).length,
      request: { id: null, idempotency_key: null },
      type: event.type,
    };
  }

  private async attempt(event: StripeStandinEvent, endpoint: StripeStandinEndpoint) {
    const body = Buffer.from(JSON.stringify(this.eventJson(event), null, 2));
    const t = Math.floor(this.now() / 1000);
    const v1 = createHmac('sha256', endpoint.secret).update(`${t}.`).update(body).digest('hex');
    const { statusCode } = await postToHook(
      endpoint.url,
      {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        'stripe-signature': `t=${t},v1=${v1}`,
      },
      body,
    );
    if (statusCode >= 200 && statusCode < 300) event.delivered.set(endpoint.id, true);
  }

  protected route(request: ProviderRequest): Answer {
    if (request.headers.authorization !== `Bearer ${this.key}`) {
      return this.error(401, 'invalid_request_error', 'Invalid API Key provided.');
    }
    const endpointMatch = /^\/v1\/webhook_endpoints\/([^/]+)$/.exec(request.path);
    if (endpointMatch) {
      const endpoint = this.endpoints.get(endpointMatch[1]!);
      if (!endpoint) return this.missing('webhook_endpoint', endpointMatch[1]!);
      if (request.method === 'POST') {
        const body = request.body as { url?: string; disabled?: string };
        if (body.url) endpoint.url = body.url;
        if (body.disabled !== undefined)
          endpoint.status = body.disabled === 'true' ? 'disabled' : 'enabled';
      }
      return { status: 200, body: this.endpointJson(endpoint) };
    }
    if (request.path === '/v1/events' && request.method === 'GET') return this.listEvents(request);
    const retry = /^\/v1\/events\/([^/]+)\/retry$/.exec(request.path);
    if (retry && request.method === 'POST') {
      const event = this.events.find((e) => e.id === retry[1]);
      if (!event) return this.missing('event', retry[1]!);
      const endpointId = (request.body as { for_webhook_endpoint?: string }).for_webhook_endpoint;
      const endpoint = endpointId ? this.endpoints.get(endpointId) : undefined;
      if (!endpoint) return this.missing('webhook_endpoint', endpointId ?? '');
      if (!event.delivered.has(endpoint.id)) event.delivered.set(endpoint.id, false);
      this.server.later(this.attempt(event, endpoint));
      return { status: 200, body: this.eventJson(event) };
    }
    return this.error(404, 'invalid_request_error', `Unrecognized request URL (${request.path}).`);
  }

  private listEvents(request: ProviderRequest): Answer {
    const q = request.query;
    const gte = q.get('created[gte]');
    const deliverySuccess = q.get('delivery_success');
    let all = [...this.events].sort((a, b) => b.created - a.created || (b.id < a.id ? -1 : 1));
    if (gte !== null) all = all.filter((e) => e.created >= Number(gte));
    if (deliverySuccess !== null) {
      const wanted = deliverySuccess === 'true';
      all = all.filter((e) => [...e.delivered.values()].every(Boolean) === wanted);
    }
    const after = q.get('starting_after');
    const start = after ? all.findIndex((e) => e.id === after) + 1 : 0;
    const limit = Math.min(Number(q.get('limit') ?? 10), this.pageSize);
    const page = all.slice(start, start + limit);
    return {
      status: 200,
      body: {
        object: 'list',
        url: '/v1/events',
        has_more: start + limit < all.length,
        data: page.map((e) => this.eventJson(e)),
      },
    };
  }

  private endpointJson(endpoint: StripeStandinEndpoint) {
    return {
      id: endpoint.id,
      object: 'webhook_endpoint',
      api_version: null,
      application: null,
      created: 1700000000,
      description: null,
      enabled_events: endpoint.enabledEvents,
      livemode: false,
      metadata: {},
      status: endpoint.status,
      url: endpoint.url,
    };
  }

  private missing(kind: string, what: string): Answer {
    return this.error(404, 'invalid_request_error', `No such ${kind}: '${what}'`);
  }

  private error(status: number, type: string, message: string): Answer {
    return { status, body: { error: { type, message } } };
  }
}
