import { randomUUID } from 'node:crypto';
import { postToHook } from './deliver.js';
import { ProviderStandin, type Answer, type ProviderRequest } from './standin-server.js';

/**
 * A stand-in for GitLab's REST API v4 at the boundary we do not own (the relay's provider links
 * talk to it through gitbeaker). Shaped after GitLab's "Project webhooks" API document
 * (docs.gitlab.com/api/project_webhooks): get and edit a project hook (`alert_status`,
 * `disabled_until`), list a hook's events (offset pagination: `x-next-page`), resend an event,
 * trigger a test event; and after "Webhooks" → "Auto-disabled webhooks": four failures in a row
 * disable a hook for a while, forty for good, and a disabled hook sends nothing. A resend POSTs the
 * stored event again as GitLab does, with its real headers: X-Gitlab-Token (the hook's secret
 * token), X-Gitlab-Event, the same Idempotency-Key and a new X-Gitlab-Event-UUID.
 */

export interface GitLabStandinHook {
  id: number;
  /** The project's path, e.g. `acme/api` (its numeric id is `projectId`). */
  project: string;
  projectId: number;
  url: string;
  token: string;
  alertStatus: 'executable' | 'temporarily_disabled' | 'disabled';
  disabledUntil: number | null;
  recentFailures: number;
}

export interface GitLabStandinEvent {
  id: number;
  hookId: number;
  idempotencyKey: string;
  event: string;
  body: Buffer;
  statusCode: number;
  createdAt: number;
  headers: Record<string, string>;
}

export class GitLabStandin extends ProviderStandin {
  readonly hooks = new Map<number, GitLabStandinHook>();
  readonly events: GitLabStandinEvent[] = [];
  /** The most events one page lists, whatever per_page asks (so pagination is exercised). */
  pageSize = 3;
  private nextId = 500;

  constructor(
    private readonly token: string,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  /** What a link's `apiBaseUrl` is for this stand-in (GitLab's is https://gitlab.com/api/v4). */
  get apiBaseUrl(): string {
    return `${this.server.url}/api/v4`;
  }

  addHook(project: string, url: string, token: string): GitLabStandinHook {
    const hook: GitLabStandinHook = {
      id: this.nextId++,
      project,
      projectId: this.nextId++,
      url,
      token,
      alertStatus: 'executable',
      disabledUntil: null,
      recentFailures: 0,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  /** GitLab sends an event to the hook now (nothing when the hook is disabled). */
  async send(
    hook: GitLabStandinHook,
    event: string,
    payload: Record<string, unknown>,
  ): Promise<GitLabStandinEvent | null> {
    if (!this.executable(hook)) return null;
    return this.execute(hook, randomUUID(), event, Buffer.from(JSON.stringify(payload)));
  }

  /** The event ids the relay asked GitLab to resend, in order. */
  get resendRequests(): string[] {
    return this.server
      .requestsTo('POST', /\/events\/\d+\/resend$/)
      .map((r) => /\/events\/(\d+)\/resend$/.exec(r.path)![1]!);
  }

  private executable(hook: GitLabStandinHook): boolean {
    if (hook.alertStatus === 'disabled') return false;
    return hook.disabledUntil === null || hook.disabledUntil <= this.now();
  }

  private async execute(
    hook: GitLabStandinHook,
    idempotencyKey: string,
    event: string,
    body: Buffer,
  ): Promise<GitLabStandinEvent> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'GitLab/17.5.0',
      'X-Gitlab-Event': event,
      'X-Gitlab-Webhook-UUID': `hook-${hook.id}`,
      'X-Gitlab-Instance': this.server.url,
      'X-Gitlab-Event-UUID': randomUUID(),
      'Idempotency-Key': idempotencyKey,
      'X-Gitlab-Token': hook.token,
    };
    const { statusCode } = await postToHook(hook.url, headers, body);
    const recorded: GitLabStandinEvent = {
      id: this.nextId++,
      hookId: hook.id,
      idempotencyKey,
      event,
      body,
      statusCode,
      createdAt: this.now(),
      headers: { ...headers, 'X-Gitlab-Token': '[REDACTED]' },
    };
    this.events.push(recorded);
    this.afterAttempt(hook, statusCode >= 200 && statusCode < 300);
    return recorded;
  }

  /** GitLab's auto-disabling: 4 failures in a row → for a while, 40 → until enabled again. */
  private afterAttempt(hook: GitLabStandinHook, succeeded: boolean): void {
    if (succeeded) {
      hook.recentFailures = 0;
      hook.alertStatus = 'executable';
      hook.disabledUntil = null;
      return;
    }
    hook.recentFailures++;
    if (hook.recentFailures >= 40) hook.alertStatus = 'disabled';
    else if (hook.recentFailures >= 4) {
      hook.alertStatus = 'temporarily_disabled';
      hook.disabledUntil = this.now() + 60_000;
    }
  }

  protected route(request: ProviderRequest): Answer {
    if (request.headers['private-token'] !== this.token) {
      return { status: 401, body: { message: '401 Unauthorized' } };
    }
    const match =
      /^\/api\/v4\/projects\/([^/]+)\/hooks\/(\d+)(\/events(?:\/(\d+)\/resend)?|\/test\/([a-z_]+))?$/.exec(
        request.path,
      );
    const hook = match ? this.hooks.get(Number(match[2])) : undefined;
    const project = match ? decodeURIComponent(match[1]!) : null;
    if (!match || !hook || (project !== hook.project && project !== String(hook.projectId))) {
      return { status: 404, body: { message: '404 Not found' } };
    }
    const [, , , tail, eventId, trigger] = match;
    if (tail === undefined && request.method === 'GET')
      return { status: 200, body: this.json(hook) };
    if (tail === undefined && request.method === 'PUT') {
      const body = request.body as { url?: string; token?: string };
      if (body.url) hook.url = body.url;
      if (body.token) hook.token = body.token;
      return { status: 200, body: this.json(hook) };
    }
    if (tail === '/events' && request.method === 'GET') return this.listEvents(hook, request);
    if (eventId !== undefined && request.method === 'POST') {
      const original = this.events.find((e) => e.id === Number(eventId) && e.hookId === hook.id);
      if (!original) return { status: 404, body: { message: '404 Not found' } };
      this.server.later(this.execute(hook, original.idempotencyKey, original.event, original.body));
      return { status: 201, body: {} };
    }
    if (trigger !== undefined && request.method === 'POST') {
      const test = Buffer.from(JSON.stringify({ object_kind: 'push', test: true }));
      this.server.later(this.execute(hook, randomUUID(), 'Push Hook', test));
      return { status: 201, body: { message: '201 Created' } };
    }
    return { status: 404, body: { message: '404 Not found' } };
  }

  private listEvents(hook: GitLabStandinHook, request: ProviderRequest): Answer {
    const all = this.events.filter((e) => e.hookId === hook.id).sort((a, b) => b.id - a.id);
    const perPage = Math.min(Number(request.query.get('per_page') ?? 20), this.pageSize);
    const page = Number(request.query.get('page') ?? 1);
    const items = all.slice((page - 1) * perPage, page * perPage);
    const more = page * perPage < all.length;
    return {
      status: 200,
      headers: {
        'x-page': String(page),
        'x-per-page': String(perPage),
        'x-next-page': more ? String(page + 1) : '',
        'x-total': String(all.length),
      },
      body: items.map((e) => ({
        id: e.id,
        url: hook.url,
        trigger: 'push_hooks',
        request_headers: e.headers,
        request_data: JSON.parse(e.body.toString('utf8')) as unknown,
        response_headers: {},
        response_body: '',
        execution_duration: 0.01,
        response_status: e.statusCode === 0 ? 'internal error' : String(e.statusCode),
        created_at: new Date(e.createdAt).toISOString(),
      })),
    };
  }

  private json(hook: GitLabStandinHook) {
    return {
      id: hook.id,
      url: hook.url,
      project_id: hook.projectId,
      push_events: true,
      issues_events: true,
      enable_ssl_verification: true,
      alert_status: hook.alertStatus,
      disabled_until:
        hook.disabledUntil === null ? null : new Date(hook.disabledUntil).toISOString(),
      created_at: new Date(0).toISOString(),
    };
  }
}
