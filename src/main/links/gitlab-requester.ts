import { GitbeakerRequestError } from '@gitbeaker/rest';
import { confinedFetch } from './confined-fetch.js';
import { patientFetch } from './patient-fetch.js';
import type { ProviderTiming } from './provider.js';

/** What gitbeaker hands its `requesterFn` (its ResourceOptions, as far as this reads it). */
interface ResourceOptions {
  url: string;
  headers: Record<string, string>;
  authHeaders: Record<string, () => Promise<string>>;
}

interface CallOptions {
  body?: Record<string, unknown>;
  searchParams?: Record<string, unknown>;
}

export interface GitLabResponse<T = unknown> {
  body: T;
  headers: Record<string, string>;
  status: number;
}

type Call = <T>(endpoint: string, options?: CallOptions) => Promise<GitLabResponse<T>>;

export interface GitLabRequester {
  get: Call;
  post: Call;
  put: Call;
  patch: Call;
  delete: Call;
}

/**
 * gitbeaker's requester, replaced through its `requesterFn` option: its own retries a 429 after a
 * quarter of a millisecond (ignoring Retry-After), retries no 5xx but 502, and cannot be told how
 * long to wait for an answer. This one waits as GitLab asks and bounds every request.
 */
export function gitlabRequester(
  timing: ProviderTiming,
  apiBaseUrl: string,
): (resource: ResourceOptions) => GitLabRequester {
  const send = confinedFetch(apiBaseUrl, patientFetch(timing));
  return (resource) => {
    const call =
      (method: string): Call =>
      async <T>(endpoint: string, options: CallOptions = {}): Promise<GitLabResponse<T>> => {
        const base = resource.url.endsWith('/') ? resource.url : `${resource.url}/`;
        const url = new URL(endpoint, base);
        for (const [key, value] of Object.entries(options.searchParams ?? {})) {
          if (typeof value === 'string' || typeof value === 'number')
            url.searchParams.set(key, String(value));
        }
        const headers: Record<string, string> = { ...resource.headers };
        for (const [name, value] of Object.entries(resource.authHeaders)) {
          headers[name] = await value();
        }
        let body: string | undefined;
        if (options.body) {
          body = JSON.stringify(options.body);
          headers['content-type'] = 'application/json';
        }
        const response = await send(url, { method, headers, body });
        const text = await response.text();
        if (!response.ok) {
          const description = errorText(text);
          throw new GitbeakerRequestError(description, {
            cause: { description, request: new Request(url, { method }), response },
          });
        }
        return {
          body: (text === '' ? null : JSON.parse(text)) as T,
          headers: Object.fromEntries(response.headers.entries()),
          status: response.status,
        };
      };
    return {
      get: call('GET'),
      post: call('POST'),
      put: call('PUT'),
      patch: call('PATCH'),
      delete: call('DELETE'),
    };
  };
}

function errorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
    const said = parsed.message ?? parsed.error;
    return typeof said === 'string' ? said : JSON.stringify(said ?? parsed);
  } catch {
    return text;
  }
}
