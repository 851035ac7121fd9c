import { z } from 'zod';
import { isoTime, webhookUidSchema } from './common.js';
import { method } from './define.js';

export const REFUSALS_PAGE_MAX = 1_000;

const refusalCounts = z.object({
  404: z.number().int(),
  405: z.number().int(),
  429: z.number().int(),
});
export type RefusalCounts = z.infer<typeof refusalCounts>;

/** A request the ingress refused without a log entry (PRODUCT.md §14). Never holds a token. */
export const refusalSchema = z.object({
  at: isoTime,
  method: z.string(),
  /** As requested, with URL tokens (and anything that could be one) as `{token}`, no query. */
  path: z.string(),
  status: z.union([z.literal(404), z.literal(405), z.literal(429)]),
  reason: z.string(),
  client: z.string(),
  /** The webhook the path names, when the relay knows it (enabled or disabled). */
  webhookUid: z.string().nullable(),
});
export type Refusal = z.infer<typeof refusalSchema>;

export const refusalMethods = {
  'refusals.list': method({
    role: 'view',
    summary: 'The newest refused requests (404, 405, 429) the delivery log does not keep',
    http: { method: 'GET', path: '/api/refusals' },
    input: z.object({
      limit: z.coerce.number().int().min(1).max(REFUSALS_PAGE_MAX).default(100),
      /** Only those naming this webhook. */
      webhook: webhookUidSchema.optional(),
    }),
    output: z.object({
      items: z.array(refusalSchema),
      /** Since the relay started. */
      counts: refusalCounts,
      /** In the last hour. */
      lastHour: refusalCounts,
      /** How many refusals the relay keeps (the oldest go first). */
      kept: z.number().int(),
    }),
  }),
};

export { refusalCounts as refusalCountsSchema };
