import { describeError } from '../log.js';
import { ProviderError, type ProviderTiming } from './provider.js';

interface FailureContext {
  provider: string;
  /** "GitHub hook 123 on acme/api" */
  describe: string;
  /** "reading the hook" */
  doing: string;
  /** The token scope or permission that administers hooks there. */
  scopeNeeded: string;
  timing: ProviderTiming;
}

function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const record = error as {
    status?: unknown;
    statusCode?: unknown;
    request?: unknown;
    response?: unknown;
    cause?: { response?: { status?: unknown } };
  };
  // Octokit reports a request that got no answer (refused, timed out) as a 500 without a response.
  if (record.request !== undefined && record.response === undefined) return null;
  const status = record.status ?? record.statusCode ?? record.cause?.response?.status;
  return typeof status === 'number' ? status : null;
}

function timedOut(error: unknown): boolean {
  const text = describeError(error);
  return /abort|timeout|timed out/i.test(text);
}

/**
 * A provider's answer as a sentence that names it and says what to do (PRODUCT §19). Waits and
 * retries have already happened in the provider's client: this is what is left.
 */
export function providerFailure(error: unknown, c: FailureContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = statusOf(error);
  const at = `${c.provider} answered ${status} for ${c.describe} (${c.doing})`;
  const tries = `tried ${c.timing.retries + 1} times; the relay tries again at the next check or recovery`;
  if (timedOut(error)) {
    return new ProviderError(
      `${c.provider} did not answer within ${c.timing.requestTimeoutMs / 1000} s for ${c.describe} (${c.doing}); ${tries}.`,
      null,
    );
  }
  switch (status) {
    case 401:
      return new ProviderError(
        `${at}: the token was refused; store a valid token in the link's team secret.`,
        status,
      );
    case 403:
    case 429:
      return new ProviderError(
        `${at}: the token may not do this, or the rate limit still holds after waiting; give the token the ${c.scopeNeeded} scope, or wait and try again.`,
        status,
      );
    case 404:
      return new ProviderError(
        `${at}: the token cannot see it; it needs the ${c.scopeNeeded} scope, and the hook must exist.`,
        status,
      );
    case null:
      return new ProviderError(
        `${c.provider} could not be reached for ${c.describe} (${c.doing}): ${describeError(error)}; ${tries}.`,
        null,
      );
    default:
      return new ProviderError(
        status >= 500 ? `${at}; ${tries}.` : `${at}: ${describeError(error)}.`,
        status,
      );
  }
}
