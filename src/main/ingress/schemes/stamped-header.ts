import type { HmacSchemeDefinition } from './define-hmac-scheme.js';
import { readStampedHeader, type StampedHeaderLayout } from './headers.js';

/** A stamped header's layout, and what joins the timestamp to the body in the signed content. */
export interface StampedScheme extends StampedHeaderLayout {
  /** Stripe signs `${t}.${body}`, Paddle `${ts}:${body}`. */
  joiner: string;
  /** A delivery ID the signed body carries (Stripe's event `id`), when the scheme has one. */
  deliveryIdOf?: (body: Buffer) => string | undefined;
}

/**
 * `read` and `write` of a scheme whose one header holds a timestamp and signatures of
 * `${timestamp}${joiner}${body}`: the layout is the only thing such providers differ in.
 */
export function stampedHeaderParts(
  scheme: StampedScheme,
): Pick<HmacSchemeDefinition, 'read' | 'write'> {
  const { header, separator, timestampKey, signatureKey, joiner, deliveryIdOf } = scheme;
  return {
    read({ headers, body }) {
      const { timestamp, candidates } = readStampedHeader(headers, scheme);
      const deliveryId = deliveryIdOf?.(body);
      return {
        candidates,
        content: [`${timestamp}${joiner}`, body],
        timestamp,
        ...(deliveryId === undefined ? {} : { deliveryId }),
      };
    },
    write: ({ timestamp, body, sign }) => ({
      [header]: `${timestampKey}=${timestamp}${separator}${signatureKey}=${sign([`${timestamp}${joiner}`, body])}`,
    }),
  };
}
