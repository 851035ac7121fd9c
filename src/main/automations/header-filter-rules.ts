import type { WebhookTrigger } from '../../shared/contract/triggers.js';
import { validateHeaderFilter } from '../../shared/filter/index.js';
import type { WebhookRecord } from '../store/webhooks.js';

/** A trigger problem with its path inside the triggers list, e.g. `triggers.0.filter.headers.x-sig`. */
export interface TriggerProblem {
  path: string;
  /** The path segments, for definition files that point at a line. */
  segments: Array<string | number>;
  message: string;
}

/** Headers a webhook redacts beyond the fixed list: a generic HMAC webhook's own signature header. */
function redactedBy(webhook: WebhookRecord | null): string[] {
  const header =
    webhook?.signatureScheme === 'hmac-sha256' ? webhook.signatureOptions?.header : null;
  return header ? [header.toLowerCase()] : [];
}

/**
 * Header filters may not name a header stored as `[redacted]` (§13). The fixed credential list
 * is checked by the contract; this adds each selected webhook's own signature header.
 */
export function findRedactedHeaderFilter(
  triggers: readonly WebhookTrigger[],
  webhookOf: (uid: string) => WebhookRecord | null,
  pathOf: (index: number) => string = (index) => `triggers.${index}`,
): TriggerProblem | null {
  for (const [i, trigger] of triggers.entries()) {
    const headers = trigger.filter.headers;
    if (!headers) continue;
    const redacted = new Set(
      trigger.filter.webhook_ids.flatMap((uid) => redactedBy(webhookOf(uid))),
    );
    if (redacted.size === 0) continue;
    const base = `${pathOf(i)}.filter.headers`;
    const checked = validateHeaderFilter(headers, base, redacted);
    if (!checked.ok) {
      const name = Object.keys(headers).find((key) => redacted.has(key.toLowerCase())) ?? '';
      return {
        path: checked.path,
        segments: ['triggers', i, 'filter', 'headers', name],
        message: checked.message,
      };
    }
  }
  return null;
}
