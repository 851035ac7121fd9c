import type { LinkKind } from '../../shared/contract/links.js';

/** The provider's record of the hook, as far as a check needs it. */
export interface HookState {
  url: string | null;
  /** False when a person set it inactive or the provider disabled it. */
  active: boolean;
  /** The provider disabled it after failed deliveries: enabling it again is the relay's job. */
  disabledByProvider: boolean;
  /** Provider-specific sentences (GitHub's content type, …), each with its fix. */
  problems: string[];
}

/** One delivery the provider recorded as failed (never answered 2xx by the relay). */
export interface FailedDelivery {
  /** What the provider's redelivery call takes (GitHub's delivery id, GitLab's event id, Stripe's event id). */
  providerDeliveryId: string;
  /** What the relay's ingress will see as its identity: GitHub's GUID, GitLab's Idempotency-Key, Stripe's event id. */
  identity: string;
  event: string | null;
  failedAt: number;
}

/** What a link does with a provider, behind one shape; one file per provider. */
export interface ProviderClient {
  kind: LinkKind;
  /** "GitHub hook 123 on acme/api": how messages name the hook. */
  describe: string;
  readHook(): Promise<HookState>;
  /** Sets the hook's URL and nothing else of it. */
  setUrl(url: string): Promise<void>;
  /** Enables a hook the provider disabled after failures. */
  enable(): Promise<void>;
  /** Failed deliveries since `since` (newest attempt per identity), oldest first. */
  failedDeliveries(since: number): Promise<FailedDelivery[]>;
  redeliver(delivery: FailedDelivery): Promise<void>;
}

/** How long and how often to wait on a provider; tests shorten them. */
export interface ProviderTiming {
  /** One HTTP request's limit (default 15 s). */
  requestTimeoutMs: number;
  /** Multiplies every wait a provider asks for (Retry-After, rate-limit reset) and every backoff step (1000). */
  retryUnitMs: number;
  /** Retries of a 5xx or a timeout (3). */
  retries: number;
  /** The longest rate-limit wait the relay accepts before giving up and reporting it (120 s). */
  maxWaitSeconds: number;
}

export const DEFAULT_TIMING: ProviderTiming = {
  requestTimeoutMs: 15_000,
  retryUnitMs: 1000,
  retries: 3,
  maxWaitSeconds: 120,
};

/** A provider's answer, said as a sentence with its fix (PRODUCT §19). */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** `fetch` that gives up after `ms` (a provider that never answers is bounded). */
export function fetchWithTimeout(ms: number): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return fetch(input, { ...init, signal });
  };
}
