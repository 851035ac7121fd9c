import { z } from 'zod';
import { DELIVERY_LABELS } from '../labels.js';
import { deliveryIdSchema, isoTime, webhookUidSchema } from './common.js';
import { method } from './define.js';

export const IDENTITY_SOURCES = [
  'delivery-id-header',
  'provider-header',
  'x-service-delivery-id',
  'body-sha256',
] as const;

export const deliverySchema = z.object({
  id: z.string(),
  webhookUid: z.string(),
  label: z.enum(DELIVERY_LABELS),
  size: z.number().int(),
  receivedAt: isoTime,
  identity: z.string().nullable(),
  identitySource: z.enum(IDENTITY_SOURCES).nullable(),
  duplicateOf: z.string().nullable(),
  replayOf: z.string().nullable(),
  reason: z.string().nullable(),
  clientAddress: z.string().nullable(),
  runIds: z.array(z.string()),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const DELIVERY_PAGE_MAX = 500;

export const deliveryMethods = {
  'deliveries.list': method({
    role: 'view',
    summary: 'Recent deliveries of a webhook, newest first',
    http: { method: 'GET', path: '/api/webhooks/:uid/deliveries' },
    input: z.object({
      uid: webhookUidSchema,
      limit: z.coerce.number().int().min(1).max(DELIVERY_PAGE_MAX).default(50),
      before: deliveryIdSchema.optional(),
    }),
    output: z.object({ items: z.array(deliverySchema), nextBefore: z.string().nullable() }),
  }),
  'deliveries.get': method({
    role: 'view',
    summary: 'One log entry, with its stored payload when it was accepted',
    http: { method: 'GET', path: '/api/deliveries/:id' },
    input: z.object({ id: deliveryIdSchema }),
    output: deliverySchema.extend({
      /** The stored bytes as text (they are valid UTF-8: they parsed as JSON). Only for Accepted. */
      payload: z.string().nullable(),
    }),
  }),
};
