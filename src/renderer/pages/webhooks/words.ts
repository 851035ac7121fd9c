import { formatCount } from '../../components/format.js';
import type { IdentitySource } from './types.js';
import type { AuthMode } from '../../../shared/contract/webhooks.js';

/** The seed's names for the authentication modes. */
export const MODE_NAMES: Record<AuthMode, string> = {
  token: 'Bearer token',
  url_token: 'URL token',
  signature: 'Provider signature',
};

export const IDENTITY_SOURCE_NAMES: Record<IdentitySource, string> = {
  'delivery-id-header': "the webhook's delivery ID header",
  'provider-header': "the provider's delivery header",
  'x-service-delivery-id': 'the X-Service-Delivery-Id header',
  'body-sha256': 'SHA-256 of the body (no identity header was sent)',
};

/** "1 automation" / "2 automations". */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** "every 6 h", "every 90 min", "every 2 days". */
export function cadenceText(minutes: number): string {
  if (minutes % 1440 === 0)
    return `every ${formatCount(minutes / 1440)} ${minutes === 1440 ? 'day' : 'days'}`;
  if (minutes % 60 === 0) return `every ${formatCount(minutes / 60)} h`;
  return `every ${formatCount(minutes)} min`;
}
