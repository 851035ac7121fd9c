import { createHash } from 'node:crypto';
import type { IdentitySource } from '../../store/deliveries.js';
import type { HeaderReader } from '../schemes/scheme.js';

export interface DeliveryIdentity {
  identity: string;
  source: IdentitySource;
}

/** Longer header values are hashed so a sender cannot make dedupe keys arbitrarily large. */
const MAX_IDENTITY_LENGTH = 200;

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

function fromHeader(header: HeaderReader, name: string | null): string | null {
  if (name === null) return null;
  const value = header(name.toLowerCase())?.trim();
  if (!value) return null;
  return value.length > MAX_IDENTITY_LENGTH ? `sha256:${sha256(value)}` : value;
}

/** Identity from headers alone (steps 1 and 3), for a request whose body was never read. */
export function headerIdentity(
  header: HeaderReader,
  webhookHeader: string | null,
): DeliveryIdentity | null {
  const configured = fromHeader(header, webhookHeader);
  if (configured) return { identity: configured, source: 'delivery-id-header' };
  const service = fromHeader(header, 'x-service-delivery-id');
  if (service) return { identity: service, source: 'x-service-delivery-id' };
  return null;
}

/**
 * First present of: the webhook's delivery-ID header, the scheme's delivery header,
 * X-Service-Delivery-Id, a SHA-256 of the raw body (PRODUCT.md §3). Scoped per webhook by the caller.
 */
export function deliveryIdentity(
  header: HeaderReader,
  body: Buffer,
  webhookHeader: string | null,
  providerDeliveryId: string | null,
): DeliveryIdentity {
  const configured = fromHeader(header, webhookHeader);
  if (configured) return { identity: configured, source: 'delivery-id-header' };
  if (providerDeliveryId) {
    const provider =
      providerDeliveryId.length > MAX_IDENTITY_LENGTH
        ? `sha256:${sha256(providerDeliveryId)}`
        : providerDeliveryId;
    return { identity: provider, source: 'provider-header' };
  }
  return (
    headerIdentity(header, null) ?? { identity: `sha256:${sha256(body)}`, source: 'body-sha256' }
  );
}
