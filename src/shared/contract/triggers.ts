import { z } from 'zod';
import { headerFilterSchema, payloadFilterSchema } from '../filter/index.js';
import { webhookUidSchema } from './common.js';

/** Zod's own wording ("Invalid input: expected array, received undefined") reads as a stack trace. */
const required =
  (what: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? `is required: ${what}` : `must be ${what}`;

/** A Webhook trigger exactly as seed §2.3 spells it; webhooks are named by UID, never by name. */
export const webhookTriggerSchema = z.strictObject(
  {
    provider: z.literal('webhook', { error: () => 'must be "webhook"' }),
    event: z.literal('received', { error: () => 'must be "received"' }),
    filter: z.strictObject(
      {
        webhook_ids: z
          .array(webhookUidSchema, { error: required('a list of webhook UIDs') })
          .min(1, 'must name at least one webhook UID')
          .max(20, 'at most 20 webhook UIDs'),
        payload: payloadFilterSchema.optional(),
        /** Request headers, by name (case-insensitive), in the payload filter's grammar (§13). */
        headers: headerFilterSchema.optional(),
      },
      {
        error: required('an object with webhook_ids and optional payload and headers filters'),
      },
    ),
  },
  { error: required('a trigger object: {provider, event, filter}') },
);
export type WebhookTrigger = z.infer<typeof webhookTriggerSchema>;

export const triggersSchema = z.array(webhookTriggerSchema).max(20, 'at most 20 triggers');
