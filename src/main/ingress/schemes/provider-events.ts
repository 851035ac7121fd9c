import { PROVIDERS, providerOf } from '../../../shared/providers/index.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';
import { getSignatureScheme } from './index.js';
import type { HeaderReader } from './scheme.js';
import { SigningError } from './verification.js';

/**
 * What each provider says about the event a delivery carries (PRODUCT.md §13): where the relay
 * reads the event type (its description, src/shared/providers) and which headers a sender adds
 * for an event (`hookport send --event`; its scheme).
 */

/**
 * The event type a provider's delivery names, or null. `payload` is undefined when the body was
 * not read or not parsed (a refused request): then only a header can name it.
 */
export function providerEventType(
  scheme: SignatureSchemeName,
  headers: HeaderReader,
  payload: unknown,
): string | null {
  return providerOf(scheme).eventType?.read(headers, payload) ?? null;
}

/** Header values `send` may carry: printable, as a header line allows. */
const PRINTABLE = /^[\x20-\x7e]{1,200}$/;

/** Schemes whose providers name the event in a header, so `send --event` has one to write. */
export const EVENT_HEADER_SCHEMES: readonly SignatureSchemeName[] = PROVIDERS.filter(
  (provider) => provider.eventType?.header != null,
).map((provider) => provider.name);

/**
 * The headers a provider sends for `event`, spelled as it sends them. Throws SigningError for a
 * scheme whose event type lives in the body, or for a name the provider would never send.
 */
export function eventHeaders(scheme: SignatureSchemeName, event: string): Record<string, string> {
  if (!PRINTABLE.test(event) || event !== event.trim()) {
    throw new SigningError('the event name must be 1 to 200 printable characters');
  }
  const write = getSignatureScheme(scheme).eventHeaders;
  if (write === undefined) {
    throw new SigningError(
      `the ${scheme} scheme names its event in the body, not in a header (schemes with event headers: ${EVENT_HEADER_SCHEMES.join(', ')})`,
    );
  }
  return write(event);
}
