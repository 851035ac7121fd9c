import { randomUUID } from 'node:crypto';
import type { GenericHmacOptions, SignatureSchemeName } from '../../shared/signature-schemes.js';
import { getSignatureScheme, SigningError } from '../ingress/schemes/index.js';
import { eventHeaders } from '../ingress/schemes/provider-events.js';
import { UsageError } from './usage.js';

/** What to send and how to authenticate it; the body is the file's bytes. */
export interface DeliveryInput {
  body: Buffer;
  secret: string | null;
  scheme: SignatureSchemeName | null;
  hmacOptions: GenericHmacOptions | null;
  id: string | null;
  timestampSeconds: number | null;
  headers: readonly (readonly [string, string])[];
  /** The provider's event headers are added for it (checked by parseSendArgs). */
  event: string | null;
}

/** The request as it goes on the wire. */
export interface OutgoingDelivery {
  /** Name as spelled → every line sent for it (`--header` given twice sends two lines). */
  headers: Record<string, string[]>;
  /** The exact bytes sent, which are the bytes signed. */
  body: Buffer;
  /** Things the sender should know (printed on stderr), e.g. that a body timestamp was added. */
  notes: string[];
}

/** Identity step 3 (PRODUCT.md §3), for senders whose scheme has no delivery header. */
export const SERVICE_DELIVERY_ID_HEADER = 'X-Service-Delivery-Id';

/**
 * Signs a delivery exactly as the provider would, at `nowMs` unless a timestamp is given. With
 * no scheme, a secret is sent as a Bearer token (a url_token URL carries its own token).
 */
export function buildDelivery(input: DeliveryInput, nowMs: number): OutgoingDelivery {
  const headers = new HeaderLines();
  const notes: string[] = [];
  headers.set('Content-Type', 'application/json');
  headers.set('User-Agent', 'hookport-send');
  let body = input.body;

  if (input.scheme === null) {
    if (input.secret !== null) headers.set('Authorization', `Bearer ${input.secret}`);
    if (input.id !== null) headers.set(SERVICE_DELIVERY_ID_HEADER, input.id);
  } else {
    const scheme = getSignatureScheme(input.scheme);
    const seconds = input.timestampSeconds ?? Math.floor(nowMs / 1000);
    if (scheme.prepareBody) {
      let prepared;
      try {
        prepared = scheme.prepareBody({
          body,
          nowMs,
          timestampSeconds: input.timestampSeconds,
          purpose: 'send',
        });
      } catch (error) {
        if (!(error instanceof SigningError)) throw error;
        throw new UsageError(error.message);
      }
      body = prepared.body;
      if (prepared.note !== null) notes.push(prepared.note);
    }
    const id =
      input.id ??
      // Providers with a delivery header send it on every delivery, so `send` does too.
      (scheme.deliveryIdHeader === null ? '' : (scheme.newDeliveryId?.() ?? randomUUID()));
    let signed: Record<string, string>;
    try {
      signed = scheme.sign({
        body,
        secret: input.secret ?? '',
        timestamp: seconds,
        id,
        options: input.hmacOptions,
      });
    } catch (error) {
      if (!(error instanceof SigningError)) throw error;
      throw new UsageError(
        `--secret cannot be used with the ${input.scheme} scheme: ${error.message}`,
      );
    }
    for (const [name, value] of Object.entries(signed)) headers.set(name, value);
    if (scheme.deliveryIdHeader === null && input.id !== null) {
      headers.set(SERVICE_DELIVERY_ID_HEADER, input.id);
    }
    if (input.event !== null) {
      for (const [name, value] of Object.entries(eventHeaders(input.scheme, input.event))) {
        headers.set(name, value);
      }
    }
  }

  // `--header` replaces a header of the same name (to send a malformed one on purpose); the same
  // name given twice sends both lines (to send a repeated one).
  const replaced = new Set<string>();
  for (const [name, value] of input.headers) {
    const key = name.toLowerCase();
    if (replaced.has(key)) headers.add(name, value);
    else headers.set(name, value);
    replaced.add(key);
  }
  return { headers: headers.toRecord(), body, notes };
}

/**
 * Header lines by lower-case name (HTTP names are case-insensitive), each sent with the spelling
 * it was last set with, so a provider's headers go out as the provider writes them.
 */
class HeaderLines {
  private readonly lines = new Map<string, { name: string; values: string[] }>();

  set(name: string, value: string): void {
    this.lines.set(name.toLowerCase(), { name, values: [value] });
  }

  add(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.lines.get(key);
    this.lines.set(key, {
      name: current?.name ?? name,
      values: [...(current?.values ?? []), value],
    });
  }

  toRecord(): Record<string, string[]> {
    return Object.fromEntries([...this.lines.values()].map((line) => [line.name, line.values]));
  }
}
