import { toEventType } from '../../../shared/event-type.js';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { HeaderReader } from './scheme.js';
import { SigningError } from './verification.js';

/**
 * What each provider says about the event a delivery carries (PRODUCT.md §13), in one place:
 * where the relay reads the event type, and which headers a sender adds for an event
 * (`hookport send --event`, and forwarding a stored delivery re-signed).
 */

const GITHUB_EVENT = 'X-GitHub-Event';
const SHOPIFY_TOPIC = 'X-Shopify-Topic';
/** Shopify's Events API sends its headers without the `X-`. */
const SHOPIFY_EVENTS_TOPIC = 'Shopify-Topic';
const GITLAB_EVENT = 'X-Gitlab-Event';

/** The shop and API version `send --event` claims for Shopify; `--header` replaces either. */
export const SHOPIFY_SHOP_DOMAIN = 'hookport-send.myshopify.com';
export const SHOPIFY_API_VERSION = '2025-07';

function header(read: HeaderReader, name: string): string | undefined {
  return read(name.toLowerCase());
}

function field(payload: unknown, key: string): unknown {
  return typeof payload === 'object' &&
    payload !== null &&
    !Array.isArray(payload) &&
    Object.hasOwn(payload, key)
    ? (payload as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The event type a provider's delivery names, or null. `payload` is undefined when the body was
 * not read or not parsed (a refused request): then only a header can name it.
 */
export function providerEventType(
  scheme: SignatureSchemeName,
  headers: HeaderReader,
  payload: unknown,
): string | null {
  switch (scheme) {
    case 'github': {
      const event = toEventType(header(headers, GITHUB_EVENT));
      if (event === null) return null;
      const action = toEventType(field(payload, 'action'));
      return (action === null ? null : toEventType(`${event}.${action}`)) ?? event;
    }
    case 'shopify':
      return toEventType(header(headers, SHOPIFY_TOPIC) ?? header(headers, SHOPIFY_EVENTS_TOPIC));
    case 'gitlab':
      return toEventType(header(headers, GITLAB_EVENT));
    case 'slack': {
      // Events API callbacks wrap the event: its type is the one that matters.
      const type = field(payload, 'type');
      return toEventType(type === 'event_callback' ? field(field(payload, 'event'), 'type') : type);
    }
    case 'stripe':
    case 'standard-webhooks':
    case 'linear':
      return toEventType(field(payload, 'type'));
    case 'paddle':
      return toEventType(field(payload, 'event_type'));
    case 'hmac-sha256':
      return null;
  }
}

/** Header values `send` may carry: printable, as a header line allows. */
const PRINTABLE = /^[\x20-\x7e]{1,200}$/;
const GITHUB_EVENT_NAME = /^[a-z0-9_]+$/;

/** Schemes whose providers name the event in a header, so `send --event` has one to write. */
export const EVENT_HEADER_SCHEMES: readonly SignatureSchemeName[] = ['github', 'shopify', 'gitlab'];

/**
 * The headers a provider sends for `event`, spelled as it sends them. Throws SigningError for a
 * scheme whose event type lives in the body, or for a name the provider would never send.
 */
export function eventHeaders(scheme: SignatureSchemeName, event: string): Record<string, string> {
  if (!PRINTABLE.test(event) || event !== event.trim()) {
    throw new SigningError('the event name must be 1 to 200 printable characters');
  }
  switch (scheme) {
    case 'github':
      if (!GITHUB_EVENT_NAME.test(event)) {
        throw new SigningError(
          event.includes('.')
            ? `GitHub names the event in X-GitHub-Event ("${event.split('.')[0]}") and the action in the body's "action"`
            : 'GitHub event names are lower-case words joined by "_" (pull_request, issues, push)',
        );
      }
      return { [GITHUB_EVENT]: event };
    case 'shopify':
      return {
        [SHOPIFY_TOPIC]: event,
        'X-Shopify-Shop-Domain': SHOPIFY_SHOP_DOMAIN,
        'X-Shopify-API-Version': SHOPIFY_API_VERSION,
      };
    case 'gitlab':
      return { [GITLAB_EVENT]: event };
    case 'slack':
    case 'stripe':
    case 'standard-webhooks':
    case 'linear':
    case 'paddle':
    case 'hmac-sha256':
      throw new SigningError(
        `the ${scheme} scheme names its event in the body, not in a header (schemes with event headers: ${EVENT_HEADER_SCHEMES.join(', ')})`,
      );
  }
}
