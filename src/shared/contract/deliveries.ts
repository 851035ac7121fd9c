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
  /** Brought by a provider link's recovery (§19): the "Recovered" chip. */
  recovered: z.boolean().optional(),
  /** One line about the payload (§22): `acme/api #42 opened: Fix retries`; null when none. */
  summary: z.string().nullable(),
  /**
   * With `q`, why the entry matched when its summary, ID and event type do not show it (§22): the
   * identity, or the payload text around the match (`…"author": "dana"…`).
   */
  match: z.string().optional(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const DELIVERY_PAGE_MAX = 500;
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_LENGTH = 256;

/** `from`/`to`: ISO 8601 (2025-01-31T12:00:00Z, 2025-01-31) or epoch milliseconds; epoch ms out. */
const timeBound = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = String(value).trim();
  const ms = /^\d{1,15}$/.test(text)
    ? Number(text)
    : /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (!Number.isFinite(ms)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an ISO 8601 time (2025-01-31T12:00:00Z) or epoch milliseconds',
    });
    return z.NEVER;
  }
  return ms;
});

/** `labels`: comma-separated label names, e.g. `Accepted,Rejected (auth)`. */
const labelList = z.string().transform((text, ctx) => {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(DELIVERY_LABELS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown label ${unknown.map((name) => `"${name}"`).join(', ')}; labels are: ${DELIVERY_LABELS.join(', ')}`,
    });
    return z.NEVER;
  }
  return names as DeliveryLabel[];
});
export const ACTIVITY_HOURS = 24;
export const VOLUME_RANGES = ['24h', '7d'] as const;
export type VolumeRange = (typeof VOLUME_RANGES)[number];
/** 24 h in hourly buckets; 7 days in 42 buckets of 4 hours. */
export const VOLUME_BUCKETS: Record<VolumeRange, { count: number; minutes: number }> = {
  '24h': { count: 24, minutes: 60 },
  '7d': { count: 42, minutes: 240 },
};

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

export const TOTAL_MODES = ['exact', 'later'] as const;

/** What narrows a webhook's log: the same for its pages and its exact total. */
const deliveryFilterSchema = z.object({
  uid: webhookUidSchema,
  /** Only entries with this label. */
  label: z
    .enum(DELIVERY_LABELS, { error: () => `must be one of: ${DELIVERY_LABELS.join(', ')}` })
    .optional(),
  /** Only entries with this identity (the sender's delivery ID, or the body's SHA-256). */
  identity: z.string().min(1).max(1024).optional(),
  /** Only entries with any of these labels (comma-separated); with `label`, either. */
  labels: labelList.optional(),
  /** A substring of the delivery ID, identity, event type or payload text; any case. */
  q: z
    .string()
    .min(SEARCH_MIN_LENGTH, `must be at least ${SEARCH_MIN_LENGTH} characters`)
    .max(SEARCH_MAX_LENGTH, `must be at most ${SEARCH_MAX_LENGTH} characters`)
    .optional(),
  eventType: z.string().min(1).max(200).optional(),
  /** Received at or after (ISO 8601 or epoch ms). */
  from: timeBound.optional(),
  /** Received at or before (ISO 8601 or epoch ms). */
  to: timeBound.optional(),
});

export const deliveryMethods = {
  'deliveries.list': method({
    role: 'view',
    summary: 'Recent deliveries of a webhook, newest first',
    http: { method: 'GET', path: '/api/webhooks/:uid/deliveries' },
    input: deliveryFilterSchema.extend({
      limit: z.coerce.number().int().min(1).max(DELIVERY_PAGE_MAX).default(50),
      before: deliveryIdSchema.optional(),
      /**
       * `later`: the page without `total` (a common text's first count can take seconds on a
       * week's log); read it from `deliveries.count`. The UI shows a search's page at once.
       */
      total: z
        .enum(TOTAL_MODES, { error: () => `must be one of: ${TOTAL_MODES.join(', ')}` })
        .default('exact'),
    }),
    output: z.object({
      items: z.array(deliverySchema),
      nextBefore: z.string().nullable(),
      /** How many entries match the filters, on every page (`before` aside); not with `total=later`. */
      total: z.number().int().optional(),
    }),
  }),
  'deliveries.count': method({
    role: 'view',
    summary: 'How many entries of a webhook match the filters (the exact total of deliveries.list)',
    http: { method: 'GET', path: '/api/webhooks/:uid/deliveries/count' },
    input: deliveryFilterSchema,
    output: z.object({ total: z.number().int() }),
  }),
  'deliveries.activity': method({
    role: 'view',
    summary:
      'Deliveries of the last 24 hours per webhook, by hour and label, and the last delivery time',
    http: { method: 'GET', path: '/api/activity' },
    input: z.object({ factory: optionalFactorySchema }),
    output: z.object({ since: isoTime, items: z.array(webhookActivitySchema) }),
  }),
  'deliveries.volume': method({
    role: 'view',
    summary: "A webhook's deliveries by label over the last 24 hours or 7 days, in equal buckets",
    http: { method: 'GET', path: '/api/webhooks/:uid/volume' },
    input: z.object({
      uid: webhookUidSchema,
      range: z.enum(VOLUME_RANGES, { error: () => 'must be 24h or 7d' }).default('24h'),
    }),
    output: z.object({
      /** Start of the first bucket (ISO); buckets are oldest first, the last one still running. */
      since: isoTime,
      bucketMinutes: z.number().int(),
      buckets: z.array(labelCounts),
    }),
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
