import { parseEventTypePath, readBodyPath, toEventType } from '../../../shared/event-type.js';
import type { WebhookRecord } from '../../store/webhooks-repo.js';
import { providerEventType } from '../schemes/provider-events.js';
import type { HeaderReader } from '../schemes/scheme.js';

/**
 * The event type of a delivery (PRODUCT.md §13), from what the ingress already parsed: the
 * provider's own header or body field for a signature scheme, else the webhook's
 * `eventTypePath`. `payload` is undefined when the body was not parsed (a refused request).
 */
export function deliveryEventType(
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme' | 'eventTypePath'>,
  header: HeaderReader,
  payload: unknown,
): string | null {
  const scheme = webhook.authMode === 'signature' ? webhook.signatureScheme : null;
  if (scheme !== null && scheme !== 'hmac-sha256') {
    return providerEventType(scheme, header, payload);
  }
  if (webhook.eventTypePath === null) return null;
  const source = parseEventTypePath(webhook.eventTypePath);
  if ('error' in source) return null;
  if (source.kind === 'header') return toEventType(header(source.name));
  return payload === undefined ? null : toEventType(readBodyPath(payload, source.keys));
}

/**
 * Whether deliveryEventType may read the payload: a provider's scheme (most name the event in the
 * body) or an `eventTypePath` into the body. Only then must the ingress build the parsed tree.
 */
export function eventTypeReadsBody(
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme' | 'eventTypePath'>,
): boolean {
  const scheme = webhook.authMode === 'signature' ? webhook.signatureScheme : null;
  if (scheme !== null && scheme !== 'hmac-sha256') return true;
  if (webhook.eventTypePath === null) return false;
  const source = parseEventTypePath(webhook.eventTypePath);
  return !('error' in source) && source.kind !== 'header';
}
