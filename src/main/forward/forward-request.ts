import { REDACTED, isCredentialHeader } from '../../shared/credential-headers.js';
import { getSignatureScheme, type SignatureScheme } from '../ingress/schemes/index.js';
import type { HeaderPairs } from '../store/attempts.js';
import type { RequestContext } from '../store/delivery-batch.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { refreshWebhookTimestamp } from './linear-timestamp.js';

/** Hop-by-hop headers (RFC 9110 §7.6.1) and those the new connection sets itself. */
const NOT_FORWARDED = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

/** Names the handler can read the relay's own delivery ID from (the provider's stays as sent). */
export const FORWARDED_DELIVERY_HEADER = 'X-Hookport-Delivery-Id';

export interface ForwardInput {
  /** The stored request (null for entries from before requests were kept). */
  stored: RequestContext | null;
  body: Buffer;
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme' | 'signatureOptions'>;
  deliveryId: string;
  /** The webhook's secret, when the request is to be signed; undefined sends it unsigned. */
  secret: string | undefined;
  nowMs: number;
}

export interface ForwardRequest {
  /** In order, names as stored; the fresh signature headers where the stale ones were. */
  headers: HeaderPairs;
  body: Buffer;
  signed: boolean;
  /** Things the tester should know (Linear's timestamp was refreshed in the body). */
  notes: string[];
}

/** Connection may name more hop-by-hop headers of its own (RFC 9110 §7.6.1). */
function connectionNamed(headers: HeaderPairs): Set<string> {
  const named = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) named.add(token.trim().toLowerCase());
  }
  return named;
}

function extraCredentialHeader(webhook: ForwardInput['webhook']): string | null {
  return webhook.signatureScheme === 'hmac-sha256'
    ? (webhook.signatureOptions?.header.toLowerCase() ?? null)
    : null;
}

/** The stored headers a handler may see again: no hop-by-hop, no credentials, nothing redacted. */
export function forwardableHeaders(
  stored: HeaderPairs,
  webhook: ForwardInput['webhook'],
  /** Lower-case names about to get fresh values: kept so the new value stands where they stood. */
  replacedLater: ReadonlySet<string> = new Set(),
): HeaderPairs {
  const extra = extraCredentialHeader(webhook);
  const named = connectionNamed(stored);
  return stored.filter(([name, value]) => {
    const lower = name.toLowerCase();
    if (replacedLater.has(lower)) return true;
    return (
      !NOT_FORWARDED.has(lower) &&
      !lower.startsWith('proxy-') &&
      !named.has(lower) &&
      !isCredentialHeader(lower, extra) &&
      value !== REDACTED
    );
  });
}

/** The first value of a header, by name in any case. */
function headerValue(headers: HeaderPairs, name: string): string | null {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1] ?? null;
}

/** Svix senders use `svix-*` names for the Standard Webhooks headers; a handler reads those. */
function svixNames(signed: Record<string, string>, stored: HeaderPairs): Record<string, string> {
  if (headerValue(stored, 'svix-id') === null || headerValue(stored, 'webhook-id') !== null) {
    return signed;
  }
  return Object.fromEntries(
    Object.entries(signed).map(([name, value]) => [name.replace(/^webhook-/, 'svix-'), value]),
  );
}

/** Fresh values replace the stored ones where they stood (once); new ones go at the end. */
function merge(headers: HeaderPairs, fresh: Record<string, string>): HeaderPairs {
  const pending = new Map(
    Object.entries(fresh).map(([name, value]) => [name.toLowerCase(), [name, value] as const]),
  );
  const replaced = new Set<string>();
  const out: HeaderPairs = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    const replacement = pending.get(lower);
    if (replacement) {
      out.push([name, replacement[1]]);
      pending.delete(lower);
      replaced.add(lower);
    } else if (!replaced.has(lower)) {
      out.push([name, value]);
    }
  }
  for (const [name, value] of pending.values()) out.push([name, value]);
  return out;
}

function providerDeliveryId(scheme: SignatureScheme, stored: HeaderPairs, fallback: string) {
  if (scheme.name === 'standard-webhooks') {
    return headerValue(stored, 'webhook-id') ?? headerValue(stored, 'svix-id') ?? fallback;
  }
  return scheme.deliveryIdHeader === null
    ? fallback
    : (headerValue(stored, scheme.deliveryIdHeader) ?? fallback);
}

/**
 * The request a handler gets for a stored delivery: its bytes and stored headers (minus
 * hop-by-hop and credential headers) and, with a secret, a fresh signature made by the scheme's
 * own signer (the code `hookport send` uses) with a fresh timestamp and the same provider
 * delivery ID. The delivery's relay ID goes along in `X-Hookport-Delivery-Id`.
 */
export function buildForwardRequest(input: ForwardInput): ForwardRequest {
  const stored = input.stored?.headers ?? [['Content-Type', 'application/json']];
  let body = input.body;
  const notes: string[] = [];
  let fresh: Record<string, string> = {};
  const schemeName = input.webhook.signatureScheme;
  const signs =
    input.secret !== undefined && input.webhook.authMode === 'signature' && schemeName !== null;
  if (signs) {
    const scheme = getSignatureScheme(schemeName);
    if (scheme.name === 'linear') {
      const refreshed = refreshWebhookTimestamp(body, input.nowMs);
      body = refreshed.body;
      if (refreshed.note) notes.push(refreshed.note);
    }
    const signed = scheme.sign({
      body,
      secret: input.secret!,
      timestamp: Math.floor(input.nowMs / 1000),
      id: providerDeliveryId(scheme, stored, input.deliveryId),
      options: input.webhook.signatureOptions,
    });
    fresh = svixNames(signed, stored);
  }
  fresh[FORWARDED_DELIVERY_HEADER] = input.deliveryId;
  const freshNames = new Set(Object.keys(fresh).map((name) => name.toLowerCase()));
  const headers = merge(forwardableHeaders(stored, input.webhook, freshNames), fresh);
  if (headerValue(headers, 'user-agent') === null) headers.push(['User-Agent', 'hookport-forward']);
  return { headers, body, signed: signs, notes };
}

/** The headers as an attempt keeps them: signature and token values never stored. */
export function redactedForRecord(
  headers: HeaderPairs,
  webhook: ForwardInput['webhook'],
): HeaderPairs {
  const extra = extraCredentialHeader(webhook);
  return headers.map(([name, value]) => [
    name,
    isCredentialHeader(name, extra) || name.toLowerCase() === 'set-cookie' ? REDACTED : value,
  ]);
}
