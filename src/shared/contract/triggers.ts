import { z } from 'zod';
import { payloadFilterSchema } from '../filter/index.js';
import { webhookUidSchema } from './common.js';

/** A Webhook trigger exactly as seed §2.3 spells it; webhooks are named by UID, never by name. */
export const webhookTriggerSchema = z.strictObject({
  provider: z.literal('webhook', { error: () => 'must be "webhook"' }),
  event: z.literal('received', { error: () => 'must be "received"' }),
  filter: z.strictObject({
    webhook_ids: z.array(webhookUidSchema).min(1, 'must name at least one webhook UID').max(20),
    payload: payloadFilterSchema.optional(),
  }),
});
export type WebhookTrigger = z.infer<typeof webhookTriggerSchema>;

export const triggersSchema = z.array(webhookTriggerSchema).max(20, 'at most 20 triggers');
