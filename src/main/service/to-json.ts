import type { Delivery } from '../../shared/contract/deliveries.js';
import type { Webhook } from '../../shared/contract/webhooks.js';
import type { DeliveryRecord } from '../store/deliveries.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { RelaySettings } from './relay-settings.js';

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** The webhook as the API shows it: never a secret, a URL token only as `{token}`. */
export function webhookJson(w: WebhookRecord, settings: RelaySettings): Webhook {
  return {
    uid: w.uid,
    factory: w.factoryId,
    name: w.name,
    authMode: w.authMode,
    signatureScheme: w.signatureScheme,
    signatureOptions: w.signatureOptions,
    secretName: w.secretName,
    deliveryIdHeader: w.deliveryIdHeader,
    eventTypePath: w.eventTypePath,
    enabled: w.enabled,
    ingressUrl: settings.ingressUrl(w),
    createdAt: iso(w.createdAt),
  };
}

export function deliveryJson(d: DeliveryRecord): Delivery {
  // Entries fresh from a commit carry no `recovered`; the log's reads do (links-repo.ts).
  return { ...d, receivedAt: iso(d.receivedAt), recovered: d.recovered ?? false };
}
