import type { SignatureSchemeName } from '../../../../shared/signature-schemes.js';
import { getSignatureScheme } from '../index.js';
import { genericSummary } from './summary-text.js';

export { MAX_SUMMARY_LENGTH } from './summary-text.js';

/**
 * A delivery's one-line summary (PRODUCT.md §22), from its event type (which holds the event a
 * provider names in a header, such as GitHub's) and its parsed payload; null when nothing in it
 * says more than nothing. Each provider's rule is in its scheme; `scheme` is null for token
 * webhooks (and deleted ones): the generic rule. Never throws: any JSON value is a payload.
 */
export function deliverySummary(
  scheme: SignatureSchemeName | null,
  eventType: string | null,
  payload: unknown,
): string | null {
  if (payload === undefined) return null;
  return scheme === null
    ? genericSummary(eventType, payload)
    : getSignatureScheme(scheme).summarize(eventType, payload);
}
