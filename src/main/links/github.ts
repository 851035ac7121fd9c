import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import {
  fetchWithTimeout,
  type FailedDelivery,
  type HookState,
  type ProviderClient,
  type ProviderTiming,
} from './provider.js';
import { confinedFetch } from './confined-fetch.js';
import { providerFailure } from './provider-failure.js';

/**
 * GitHub through Octokit (REST API "Repository webhooks" and "Organization webhooks", version
 * 2022-11-28), with its pagination, throttling (waits as x-ratelimit-reset or Retry-After ask)
 * and retry (5xx and timeouts, with backoff) plugins.
 */
const GitHubClient = Octokit.plugin(throttling, retry);

/** `owner/repo#123` or `org:acme#123`. */
function parseTarget(target: string): { scope: string; where: string; hookId: number } {
  const [where = '', id = ''] = target.split('#');
  const scope = where.startsWith('org:') ? `/orgs/${where.slice(4)}` : `/repos/${where}`;
  return { scope, where: where.replace(/^org:/, ''), hookId: Number(id) };
}

interface GitHubHook {
  active: boolean;
  config: { url?: string; content_type?: string; insecure_ssl?: string | number };
}

interface GitHubDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  status_code: number;
  event: string;
  action: string | null;
}

const ok = (status: number): boolean => status >= 200 && status < 300;

export function githubClient(options: {
  target: string;
  apiBaseUrl: string;
  token: string;
  timing: ProviderTiming;
}): ProviderClient {
  const { scope, where, hookId } = parseTarget(options.target);
  const isOrg = options.target.startsWith('org:');
  const { timing } = options;
  const describe = `GitHub hook ${hookId} on ${where}`;
  const waitAllowed = (seconds: number, _o: unknown, _k: unknown, count: number): boolean =>
    seconds <= timing.maxWaitSeconds && count < 3;
  const octokit = new GitHubClient({
    auth: options.token,
    baseUrl: options.apiBaseUrl,
    userAgent: 'hookport',
    request: {
      fetch: confinedFetch(options.apiBaseUrl, fetchWithTimeout(timing.requestTimeoutMs)),
    },
    retry: { retries: timing.retries, retryAfterBaseValue: timing.retryUnitMs },
    throttle: {
      retryAfterBaseValue: timing.retryUnitMs,
      // GitHub asks for a second between writes; its own unit, so tests run in milliseconds.
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: timing.retryUnitMs }),
      onRateLimit: waitAllowed,
      onSecondaryRateLimit: waitAllowed,
    },
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  const hookPath = `${scope}/hooks/${hookId}`;
  const scopeNeeded = isOrg ? 'admin:org_hook' : 'admin:repo_hook';
  const failure = (error: unknown, doing: string) =>
    providerFailure(error, { provider: 'GitHub', describe, doing, scopeNeeded, timing });

  return {
    kind: 'github',
    describe,
    async readHook(): Promise<HookState> {
      try {
        const hook = (await octokit.request(`GET ${hookPath}`)).data as GitHubHook;
        const problems: string[] = [];
        if (hook.config.content_type !== 'json') {
          problems.push(
            `${describe} sends ${hook.config.content_type ?? 'form'}-encoded payloads; set its content type to application/json in the hook's settings on GitHub.`,
          );
        }
        return {
          url: hook.config.url ?? null,
          active: hook.active,
          disabledByProvider: false,
          problems,
        };
      } catch (error) {
        throw failure(error, 'reading the hook');
      }
    },
    async setUrl(url) {
      try {
        // Only `url`: a config replaced without its secret loses it, and GitHub stops signing.
        await octokit.request(`PATCH ${hookPath}/config`, { data: { url } });
      } catch (error) {
        throw failure(error, "setting the hook's URL");
      }
    },
    enable() {
      // GitHub never disables a repository or organization hook by itself; a person did.
      return Promise.resolve();
    },
    async failedDeliveries(since) {
      let listed: GitHubDelivery[];
      try {
        listed = await octokit.paginate<GitHubDelivery>(`GET ${hookPath}/deliveries`, {
          per_page: 100,
        });
      } catch (error) {
        throw failure(error, 'listing its deliveries');
      }
      // Each attempt is listed; a GUID that reached the relay once is not failed.
      const byGuid = new Map<string, GitHubDelivery[]>();
      for (const d of listed) byGuid.set(d.guid, [...(byGuid.get(d.guid) ?? []), d]);
      const failed: FailedDelivery[] = [];
      for (const [guid, attempts] of byGuid) {
        if (attempts.some((a) => ok(a.status_code))) continue;
        const newest = attempts.reduce((a, b) =>
          Date.parse(b.delivered_at) > Date.parse(a.delivered_at) ? b : a,
        );
        const failedAt = Date.parse(newest.delivered_at);
        if (failedAt < since) continue;
        failed.push({
          providerDeliveryId: String(newest.id),
          identity: guid,
          event: newest.action ? `${newest.event}.${newest.action}` : newest.event,
          failedAt,
        });
      }
      return failed.sort((a, b) => a.failedAt - b.failedAt);
    },
    async redeliver(delivery) {
      try {
        await octokit.request(
          `POST ${hookPath}/deliveries/${delivery.providerDeliveryId}/attempts`,
        );
      } catch (error) {
        throw failure(error, `asking for delivery ${delivery.providerDeliveryId} again`);
      }
    },
  };
}
