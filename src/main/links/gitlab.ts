import { ProjectHooks } from '@gitbeaker/rest';
import { gitlabRequester, type GitLabRequester } from './gitlab-requester.js';
import type { FailedDelivery, HookState, ProviderClient, ProviderTiming } from './provider.js';
import { providerFailure } from './provider-failure.js';

/**
 * GitLab through gitbeaker (REST API v4, "Project webhooks": get and edit a project hook, list a
 * hook's events, resend one). gitbeaker has no call for a hook's events, so those go through its
 * requester, the same one (and token) its own calls use.
 */

interface GitLabHook {
  id: number;
  url: string;
  /** `executable`, `temporarily_disabled` (after 4 failures in a row) or `disabled` (for good). */
  alert_status?: string;
  disabled_until?: string | null;
}

/** One entry of `GET /projects/:id/hooks/:hook_id/events`: one attempt to deliver. */
interface GitLabHookEvent {
  id: number;
  response_status: string | number;
  request_headers?: Record<string, string>;
  created_at?: string;
}

const ok = (status: string | number): boolean => /^2\d\d$/.test(String(status));

function header(event: GitLabHookEvent, name: string): string | null {
  const found = Object.entries(event.request_headers ?? {}).find(
    ([key]) => key.toLowerCase() === name.toLowerCase(),
  );
  return found ? found[1] : null;
}

/** `group%2Fproject#7` or `42#7`; gitbeaker encodes the project again. */
function parseTarget(target: string): { project: string; hookId: number } {
  const at = target.lastIndexOf('#');
  return {
    project: decodeURIComponent(target.slice(0, at)),
    hookId: Number(target.slice(at + 1)),
  };
}

/** gitbeaker adds `/api/v4` to the host itself. */
function hostOf(apiBaseUrl: string): string {
  return apiBaseUrl.replace(/\/api\/v4\/?$/, '');
}

export function gitlabClient(options: {
  target: string;
  apiBaseUrl: string;
  token: string;
  timing: ProviderTiming;
  now?: () => number;
}): ProviderClient {
  const { project, hookId } = parseTarget(options.target);
  const now = options.now ?? Date.now;
  const describe = `GitLab hook ${hookId} on ${project}`;
  const hooks = new ProjectHooks({
    host: hostOf(options.apiBaseUrl),
    token: options.token,
    queryTimeout: null,
    requesterFn: gitlabRequester(options.timing, options.apiBaseUrl),
  });
  const requester = hooks.requester as unknown as GitLabRequester;
  const eventsPath = `${encodeURIComponent(project)}/hooks/${hookId}/events`;
  const failure = (error: unknown, doing: string) =>
    providerFailure(error, {
      provider: 'GitLab',
      describe,
      doing,
      scopeNeeded: 'api scope (with the Maintainer role on the project)',
      timing: options.timing,
    });

  async function listEvents(): Promise<GitLabHookEvent[]> {
    const all: GitLabHookEvent[] = [];
    for (let page = 1; page > 0;) {
      const response = await requester.get<GitLabHookEvent[]>(eventsPath, {
        searchParams: { per_page: 100, page },
      });
      all.push(...response.body);
      const next = Number(response.headers['x-next-page'] ?? '');
      page = Number.isInteger(next) && next > page ? next : 0;
    }
    return all;
  }

  /** Each attempt is an event; what stays across attempts is the Idempotency-Key. */
  function failedFrom(events: GitLabHookEvent[], since: number): FailedDelivery[] {
    const byKey = new Map<string, GitLabHookEvent[]>();
    for (const event of events) {
      const key =
        header(event, 'Idempotency-Key') ?? header(event, 'X-Gitlab-Event-UUID') ?? `#${event.id}`;
      byKey.set(key, [...(byKey.get(key) ?? []), event]);
    }
    const failed: FailedDelivery[] = [];
    for (const [identity, attempts] of byKey) {
      if (attempts.some((a) => ok(a.response_status))) continue;
      const newest = attempts.reduce((a, b) => (b.id > a.id ? b : a));
      // GitLab lists only the last 7 days; an event without its time is taken as recent.
      const failedAt = newest.created_at ? Date.parse(newest.created_at) : now();
      if (failedAt < since) continue;
      failed.push({
        providerDeliveryId: String(newest.id),
        identity,
        event: header(newest, 'X-Gitlab-Event'),
        failedAt,
      });
    }
    return failed.sort((a, b) => a.failedAt - b.failedAt);
  }

  async function resend(eventId: string): Promise<void> {
    await requester.post(`${eventsPath}/${eventId}/resend`);
  }

  return {
    kind: 'gitlab',
    describe,
    async readHook(): Promise<HookState> {
      try {
        const hook = (await hooks.show(project, hookId)) as unknown as GitLabHook;
        const status = hook.alert_status ?? 'executable';
        const until = hook.disabled_until ? Date.parse(hook.disabled_until) : null;
        // A temporary disable ends by itself at disabled_until.
        const disabled =
          status === 'disabled' ||
          (status === 'temporarily_disabled' && (until === null || until > now()));
        return { url: hook.url, active: !disabled, disabledByProvider: disabled, problems: [] };
      } catch (error) {
        throw failure(error, 'reading the hook');
      }
    },
    async setUrl(url) {
      try {
        // Only `url`: GitLab keeps the hook's secret token and events when they are not sent.
        await hooks.edit(project, hookId, url);
      } catch (error) {
        throw failure(error, "setting the hook's URL");
      }
    },
    async enable() {
      // GitLab has no "enable" call: a hook is enabled again by a delivery it answers 2xx. The
      // newest failed delivery is one the relay wants anyway (and its identity is deduplicated);
      // without one, GitLab's own "Test" request (what its settings page offers) does it.
      try {
        const failed = failedFrom(await listEvents(), 0);
        const newest = failed[failed.length - 1];
        if (newest) await resend(newest.providerDeliveryId);
        else
          await requester.post(`${encodeURIComponent(project)}/hooks/${hookId}/test/push_events`);
      } catch (error) {
        throw failure(error, 'enabling the hook again');
      }
    },
    async failedDeliveries(since) {
      try {
        return failedFrom(await listEvents(), since);
      } catch (error) {
        throw failure(error, "listing the hook's events");
      }
    },
    async redeliver(delivery) {
      try {
        await resend(delivery.providerDeliveryId);
      } catch (error) {
        throw failure(error, `resending event ${delivery.providerDeliveryId}`);
      }
    },
  };
}
