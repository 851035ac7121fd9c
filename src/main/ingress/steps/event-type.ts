import {
  parseEventTypePath,
  readBodyPath,
  toEventType,
  type EventTypeSource,
} from '../../../shared/event-type.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { WebhookRecord } from '../../store/webhooks.js';
import { providerEventType } from '../schemes/provider-events.js';
import type { HeaderReader } from '../schemes/scheme.js';

type EventTypeSettings = Pick<WebhookRecord, 'authMode' | 'signatureScheme' | 'eventTypePath'>;

/** Where a webhook's deliveries name their event, or null when they do not. */
type Source = { kind: 'provider'; scheme: SignatureSchemeName } | EventTypeSource | null;

/**
 * Worked out once per webhook record: the ingress's directory keeps one object per webhook and
 * replaces it (never edits it) on a change, and every delivery asks twice.
 */
const sources = new WeakMap<EventTypeSettings, Source>();

function sourceOf(webhook: EventTypeSettings): Source {
  let source = sources.get(webhook);
  if (source === undefined) sources.set(webhook, (source = findSource(webhook)));
  return source;
}

function findSource(webhook: EventTypeSettings): Source {
  const scheme = webhook.authMode === 'signature' ? webhook.signatureScheme : null;
  if (scheme !== null && scheme !== 'hmac-sha256') return { kind: 'provider', scheme };
  if (webhook.eventTypePath === null) return null;
  const source = parseEventTypePath(webhook.eventTypePath);
  return 'error' in source ? null : source;
}

/**
 * The event type of a delivery (PRODUCT.md §13), from what the ingress already parsed: the
 * provider's own header or body field for a signature scheme, else the webhook's
 * `eventTypePath`. `payload` is undefined when the body was not parsed (a refused request).
 */
export function deliveryEventType(
  webhook: EventTypeSettings,
  header: HeaderReader,
  payload: unknown,
): string | null {
  const source = sourceOf(webhook);
  if (source === null) return null;
  if (source.kind === 'provider') return providerEventType(source.scheme, header, payload);
  if (source.kind === 'header') return toEventType(header(source.name));
  return payload === undefined ? null : toEventType(readBodyPath(payload, source.keys));
}

/**
 * Whether deliveryEventType may read the payload: a provider's scheme (most name the event in the
 * body) or an `eventTypePath` into the body. Only then must the ingress build the parsed tree.
 */
export function eventTypeReadsBody(webhook: EventTypeSettings): boolean {
  const kind = sourceOf(webhook)?.kind;
  return kind === 'provider' || kind === 'body';
}
