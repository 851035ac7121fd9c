import type { ProviderTiming } from './provider.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds the provider asks to wait (Retry-After, or a rate-limit reset in epoch seconds). */
function askedWaitSeconds(response: Response, now: number): number | null {
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter);
  const reset =
    response.headers.get('ratelimit-reset') ?? response.headers.get('x-ratelimit-reset');
  if (reset !== null && /^\d+$/.test(reset.trim())) {
    return Math.max(0, Number(reset) - Math.floor(now / 1000));
  }
  return null;
}

function rateLimited(response: Response): boolean {
  if (response.status === 429) return true;
  return (
    response.status === 403 &&
    (response.headers.get('retry-after') !== null ||
      response.headers.get('ratelimit-remaining') === '0' ||
      response.headers.get('x-ratelimit-remaining') === '0')
  );
}

/**
 * `fetch` as the relay wants every provider API call made, for clients whose own handling falls
 * short (GitLab's and Stripe's): each attempt bounded by `requestTimeoutMs`; a rate limit waits as
 * the provider asks (Retry-After, RateLimit-Reset) when that is at most `maxWaitSeconds`, up to 3
 * times; a 5xx, a refused connection or a timeout is tried `retries` more times with backoff.
 * The last answer (or error) is what the caller sees.
 */
export function patientFetch(timing: ProviderTiming, now: () => number = Date.now): typeof fetch {
  return async (input, init) => {
    let failures = 0;
    let waits = 0;
    for (;;) {
      const timeout = AbortSignal.timeout(timing.requestTimeoutMs);
      const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetch(input instanceof Request ? input.clone() : input, {
          ...init,
          signal,
        });
      } catch (error) {
        if (init?.signal?.aborted || failures >= timing.retries) throw error;
        await sleep(timing.retryUnitMs * 2 ** failures++);
        continue;
      }
      if (rateLimited(response)) {
        const seconds = askedWaitSeconds(response, now()) ?? 1;
        if (seconds > timing.maxWaitSeconds || waits >= 3) return response;
        waits++;
        await response.body?.cancel();
        await sleep(Math.max(seconds, 1) * timing.retryUnitMs);
        continue;
      }
      if (response.status >= 500 && failures < timing.retries) {
        await response.body?.cancel();
        await sleep(timing.retryUnitMs * 2 ** failures++);
        continue;
      }
      return response;
    }
  };
}
