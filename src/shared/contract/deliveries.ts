import { z } from 'zod';
import { DELIVERY_LABELS, type DeliveryLabel } from '../labels.js';
import { deliveryIdSchema, isoTime, optionalFactorySchema, webhookUidSchema } from './common.js';
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
  /** Derived when the delivery was received (§13): `pull_request.opened`, `orders/paid`; null when unknown. */
  eventType: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const DELIVERY_PAGE_MAX = 500;
export const ACTIVITY_HOURS = 24;

const labelCounts = z.object(
  Object.fromEntries(DELIVERY_LABELS.map((label) => [label, z.number().int()])) as Record<
    DeliveryLabel,
    z.ZodNumber
  >,
);
export type LabelCounts = z.infer<typeof labelCounts>;

export const webhookActivitySchema = z.object({
  uid: z.string(),
  /** Oldest first: ACTIVITY_HOURS clock-hour buckets from `since`, the last one the current hour. */
  hours: z.array(labelCounts),
  lastDeliveryAt: isoTime.nullable(),
});
export type WebhookActivity = z.infer<typeof webhookActivitySchema>;

export const deliveryMethods = {
  'deliveries.list': method({
    role: 'view',
    summary: 'Recent deliveries of a webhook, newest first',
    http: { method: 'GET', path: '/api/webhooks/:uid/deliveries' },
    input: z.object({
      uid: webhookUidSchema,
      limit: z.coerce.number().int().min(1).max(DELIVERY_PAGE_MAX).default(50),
      before: deliveryIdSchema.optional(),
      /** Only entries with this label. */
      label: z
        .enum(DELIVERY_LABELS, { error: () => `must be one of: ${DELIVERY_LABELS.join(', ')}` })
        .optional(),
      /** Only entries with this identity (the sender's delivery ID, or the body's SHA-256). */
      identity: z.string().min(1).max(1024).optional(),
    }),
    output: z.object({ items: z.array(deliverySchema), nextBefore: z.string().nullable() }),
  }),
  'deliveries.activity': method({
    role: 'view',
    summary:
      'Deliveries of the last 24 hours per webhook, by hour and label, and the last delivery time',
    http: { method: 'GET', path: '/api/activity' },
    input: z.object({ factory: optionalFactorySchema }),
    output: z.object({ since: isoTime, items: z.array(webhookActivitySchema) }),
  }),
  'deliveries.get': method({
    role: 'view',
    summary:
      'One log entry: its request (method, path, headers with credentials redacted) and, when it was accepted, its stored payload',
    http: { method: 'GET', path: '/api/deliveries/:id' },
    input: z.object({ id: deliveryIdSchema }),
    output: deliverySchema.extend({
      /** The stored bytes as text (they are valid UTF-8: they parsed as JSON). Only for Accepted. */
      payload: z.string().nullable(),
      /** The request as received (§13); null for entries logged before requests were kept. */
      method: z.string().nullable(),
      /** The request target, a URL token as `{token}`. */
      path: z.string().nullable(),
      /** In the order received, names as sent, credential values as `[redacted]`. */
      headers: z.array(z.tuple([z.string(), z.string()])).nullable(),
    }),
  }),
};
