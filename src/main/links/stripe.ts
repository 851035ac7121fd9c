import Stripe from 'stripe';
import { confinedFetch } from './confined-fetch.js';
import { patientFetch } from './patient-fetch.js';
import type { FailedDelivery, HookState, ProviderClient, ProviderTiming } from './provider.js';
import { providerFailure } from './provider-failure.js';

/**
 * Stripe through its own library (API reference: "Webhook Endpoints" retrieve and update;
 * "Events" list with `delivery_success=false`). Stripe's public API has no call that lists one
 * endpoint's failed deliveries, nor a documented resend: the relay asks for
 * `POST /v1/events/{id}/retry` with `for_webhook_endpoint`, the call the Stripe CLI's
 * `stripe events resend --webhook-endpoint` makes, through the library's `rawRequest`.
 *
 * The library's own retries wait whole seconds and cannot be shortened; they are off, and the
 * fetch it is given waits and retries as every provider link does.
 */

function endpointUrl(apiBaseUrl: string): {
  host: string;
  port: number;
  protocol: 'http' | 'https';
} {
  const url = new URL(apiBaseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/** The longest the fetch below may take with its retries (each attempt, each backoff). */
function wholeWaitMs(timing: ProviderTiming): number {
  const attempts = timing.retries + 1;
  return attempts * timing.requestTimeoutMs + 2 ** attempts * timing.retryUnitMs + 1000;
}

/** `*` or the event's own type, or a `prefix.*` the endpoint listens to. */
function listensTo(enabled: string[], type: string): boolean {
  return enabled.some(
    (e) => e === '*' || e === type || (e.endsWith('.*') && type.startsWith(e.slice(0, -1))),
  );
}

export function stripeClient(options: {
  target: string;
  apiBaseUrl: string;
  token: string;
  timing: ProviderTiming;
}): ProviderClient {
  const endpointId = options.target;
  const describe = `Stripe webhook endpoint ${endpointId}`;
  const stripe = new Stripe(options.token, {
    ...endpointUrl(options.apiBaseUrl),
    maxNetworkRetries: 0,
    // Each attempt is bounded by the fetch below; the library's limit covers them all.
    timeout: wholeWaitMs(options.timing),
    httpClient: Stripe.createFetchHttpClient(
      confinedFetch(options.apiBaseUrl, patientFetch(options.timing)),
    ),
    telemetry: false,
  });
  const failure = (error: unknown, doing: string) =>
    providerFailure(error, {
      provider: 'Stripe',
      describe,
      doing,
      scopeNeeded: 'Webhook Endpoints write and Events read permissions (a secret key has both)',
      timing: options.timing,
    });
  const retrieve = () => stripe.webhookEndpoints.retrieve(endpointId);

  return {
    kind: 'stripe',
    describe,
    async readHook(): Promise<HookState> {
      try {
        const endpoint = await retrieve();
        const disabled = endpoint.status === 'disabled';
        // Stripe does not say who disabled an endpoint; keep pointed enables it again.
        return { url: endpoint.url, active: !disabled, disabledByProvider: disabled, problems: [] };
      } catch (error) {
        throw failure(error, 'reading the endpoint');
      }
    },
    async setUrl(url) {
      try {
        await stripe.webhookEndpoints.update(endpointId, { url });
      } catch (error) {
        throw failure(error, "setting the endpoint's URL");
      }
    },
    async enable() {
      try {
        await stripe.webhookEndpoints.update(endpointId, { disabled: false });
      } catch (error) {
        throw failure(error, 'enabling the endpoint again');
      }
    },
    async failedDeliveries(since) {
      try {
        const endpoint = await retrieve();
        // Events some endpoint has not yet received; those this relay has are skipped by identity.
        const failed: FailedDelivery[] = [];
        for await (const event of stripe.events.list({
          delivery_success: false,
          created: { gte: Math.floor(since / 1000) },
          limit: 100,
        })) {
          if (!listensTo(endpoint.enabled_events, event.type)) continue;
          failed.push({
            providerDeliveryId: event.id,
            identity: event.id,
            event: event.type,
            failedAt: event.created * 1000,
          });
        }
        return failed.sort((a, b) => a.failedAt - b.failedAt);
      } catch (error) {
        throw failure(error, 'listing events not delivered');
      }
    },
    async redeliver(delivery) {
      try {
        await stripe.rawRequest('POST', `/v1/events/${delivery.providerDeliveryId}/retry`, {
          for_webhook_endpoint: endpointId,
        });
      } catch (error) {
        throw failure(error, `resending event ${delivery.providerDeliveryId}`);
      }
    },
  };
}
