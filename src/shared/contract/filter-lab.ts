import { z } from 'zod';
import { isoTime, webhookUidSchema } from './common.js';
import { method } from './define.js';
import { TEST_FILTER_VERDICTS } from './automations.js';
import { webhookTriggerSchema } from './triggers.js';

export const FILTER_MATCHES_MAX = 1_000;
export const FILTER_MATCHES_DEFAULT = 500;
export const FIELDS_SCAN_MAX = 1_000;
export const FIELDS_SCAN_DEFAULT = 200;
/** How many distinct paths `webhooks.fields` lists at most. */
export const FIELDS_MAX = 1_000;

export const filterMatchSchema = z.object({
  deliveryId: z.string(),
  webhookUid: z.string(),
  receivedAt: isoTime,
  eventType: z.string().nullable(),
  verdict: z.enum(TEST_FILTER_VERDICTS),
  /** Why not, for a delivery that would not trigger: the first failing check, in a line. */
  detail: z.string().nullable(),
});
export type FilterMatch = z.infer<typeof filterMatchSchema>;

export const seenFieldSchema = z.object({
  /** Dotted as the filter reads it: arrays are looked through, `a.b` inside `a`. */
  path: z.string(),
  /** The same path as keys, for a client that writes it into a filter. */
  keys: z.array(z.string()),
  /** The first value seen at that path, as JSON, cut to 200 characters. */
  example: z.string(),
  /** `string`, `number`, `boolean`, `null`, `object` or `array`, as first seen. */
  type: z.string(),
  /** In how many of the scanned payloads the path occurs. */
  seenIn: z.number().int(),
});
export type SeenField = z.infer<typeof seenFieldSchema>;

export const filterLabMethods = {
  'automations.filterMatches': method({
    role: 'view',
    summary:
      'Filter lab: how many of the newest stored Accepted deliveries of its webhooks a ' +
      '(possibly unsaved) trigger would start a run for, with each verdict',
    http: { method: 'POST', path: '/api/automations/filter-matches' },
    input: z.strictObject({
      trigger: webhookTriggerSchema,
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(FILTER_MATCHES_MAX, `must be at most ${FILTER_MATCHES_MAX}`)
        .default(FILTER_MATCHES_DEFAULT),
    }),
    output: z.object({
      scanned: z.number().int(),
      matched: z.number().int(),
      /** Newest first. */
      items: z.array(filterMatchSchema),
    }),
  }),
  'webhooks.fields': method({
    role: 'view',
    summary: "JSON paths seen in a webhook's newest stored payloads, with an example each",
    http: { method: 'GET', path: '/api/webhooks/:uid/fields' },
    input: z.object({
      uid: webhookUidSchema,
      /** How many of the newest Accepted payloads to read. */
      limit: z.coerce.number().int().min(1).max(FIELDS_SCAN_MAX).default(FIELDS_SCAN_DEFAULT),
    }),
    output: z.object({
      scanned: z.number().int(),
      /** Most often seen first, then by path. */
      items: z.array(seenFieldSchema),
      /** More distinct paths were seen than listed. */
      truncated: z.boolean(),
    }),
  }),
};
