import type { SignatureSchemeName } from '../../../../shared/signature-schemes.js';
import { githubSummary } from './github.js';
import { gitlabSummary } from './gitlab.js';
import { linearSummary } from './linear.js';
import { paddleSummary } from './paddle.js';
import { shopifySummary } from './shopify.js';
import { slackSummary } from './slack.js';
import { stripeSummary } from './stripe.js';
import { genericSummary } from './summary-text.js';

export { MAX_SUMMARY_LENGTH } from './summary-text.js';

type Summarize = (eventType: string | null, payload: unknown) => string | null;

/** Each provider's rule; Standard Webhooks and generic HMAC have no shape of their own. */
const BY_SCHEME: Record<SignatureSchemeName, Summarize> = {
  github: githubSummary,
  gitlab: gitlabSummary,
  stripe: stripeSummary,
  shopify: shopifySummary,
  linear: linearSummary,
  slack: slackSummary,
  paddle: paddleSummary,
  'standard-webhooks': genericSummary,
  'hmac-sha256': genericSummary,
};

/**
 * A delivery's one-line summary (PRODUCT.md §22), from its event type (which holds the event a
 * provider names in a header, such as GitHub's) and its parsed payload; null when nothing in it
 * says more than nothing. `scheme` is null for token webhooks (and deleted ones): the generic
 * rule. Never throws: any JSON value is a payload.
 */
export function deliverySummary(
  scheme: SignatureSchemeName | null,
  eventType: string | null,
  payload: unknown,
): string | null {
  if (payload === undefined) return null;
  return (scheme === null ? genericSummary : BY_SCHEME[scheme])(eventType, payload);
}
