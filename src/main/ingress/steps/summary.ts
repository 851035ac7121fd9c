import type { WebhookRecord } from '../../store/webhooks.js';
import { deliverySummary } from '../schemes/summaries/index.js';

/**
 * The summary stored with an accepted delivery (PRODUCT.md §22), from the tree the ingress parsed
 * anyway (for its automations or its event type); never a parse of its own on the accept path.
 * A delivery that was not parsed (a token webhook nothing evaluates) gets its summary when read.
 */
export function acceptedSummary(
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme'>,
  eventType: string | null,
  payload: unknown,
): string | null {
  const scheme = webhook.authMode === 'signature' ? webhook.signatureScheme : null;
  return deliverySummary(scheme, eventType, payload);
}
