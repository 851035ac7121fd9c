import { z } from 'zod';
import { MAX_BODY_BYTES } from '../limits.js';
import { deliveryIdSchema, isoTime, webhookUidSchema } from './common.js';
import { method } from './define.js';

/** What an attempt keeps of the handler's answer body. */
export const MAX_ATTEMPT_BODY_BYTES = 64 * 1024;
export const FORWARD_URL_MAX_LENGTH = 2048;
export const FORWARD_BACKLOG_MAX = 500;

const isHttpUrl = (text: string): boolean =>
  URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** http or https, absolute, without a user name or password (an attempt keeps its URL). */
export const forwardUrlSchema = z
  .string()
  .max(FORWARD_URL_MAX_LENGTH, `must be at most ${FORWARD_URL_MAX_LENGTH} characters`)
  .refine(isHttpUrl, {
    message: 'must be an http:// or https:// URL, e.g. http://127.0.0.1:3000/webhooks',
    abort: true,
  })
  .refine(
    (text) => {
      const url = new URL(text);
      return url.username === '' && url.password === '';
    },
    { message: 'must not carry a user name or password: attempts keep their URL' },
  )
  // One spelling per target, so the forwarder's place is found however the URL was typed.
  .transform((text) => new URL(text).href);

/** One send of a stored delivery to a handler, and what the handler answered. */
export const attemptSchema = z.object({
  id: z.string(),
  deliveryId: z.string(),
  webhookUid: z.string(),
  url: z.string(),
  at: isoTime,
  /** The handler's status; null when it never answered (refused, reset, timed out). */
  status: z.number().int().nullable(),
  /** The answer's headers in the order received; credential values as `[redacted]`. */
  headers: z.array(z.tuple([z.string(), z.string()])),
  /** The answer's body as text, at most 64 KB of it. */
  body: z.string(),
  /** The answer was longer than what `body` keeps. */
  bodyTruncated: z.boolean(),
  durationMs: z.number().int(),
  /** Why there is no answer (`ECONNREFUSED`, `timed out after 15 s`, …); null when answered. */
  error: z.string().nullable(),
  /** An edited payload was sent instead of the stored bytes. */
  edited: z.boolean(),
  /** The edited payload that was sent; null when the stored bytes went out. */
  sentBody: z.string().nullable(),
  /** A fresh signature of the webhook's scheme was added. */
  signed: z.boolean(),
  /** Headers sent, in order; signature and token values as `[redacted]`. */
  requestHeaders: z.array(z.tuple([z.string(), z.string()])),
  /** Sent by `hookport forward`: such attempts move the URL's catch-up place. */
  forwarder: z.boolean(),
  /** The handler took it: any answer but 502, 503 or 504 (which say it is down). */
  delivered: z.boolean(),
});
export type Attempt = z.infer<typeof attemptSchema>;

const backlogItemSchema = z.object({
  id: z.string(),
  receivedAt: isoTime,
  eventType: z.string().nullable(),
  size: z.number().int(),
});

export const forwardingMethods = {
  'deliveries.forward': method({
    role: 'manage',
    summary:
      'Send a stored delivery to a handler (its bytes, or an edited body), re-signed with the ' +
      "webhook's own scheme and secret, and record the attempt",
    http: { method: 'POST', path: '/api/deliveries/:id/forward' },
    input: z.strictObject({
      id: deliveryIdSchema,
      url: forwardUrlSchema,
      /** Add a fresh signature when the webhook is a `signature` webhook. */
      sign: z.boolean().default(true),
      /** An edited payload to send instead of the stored bytes (any text up to 256 KB). */
      body: z
        .string()
        .refine((text) => new TextEncoder().encode(text).length <= MAX_BODY_BYTES, {
          message: `must be at most ${MAX_BODY_BYTES} bytes`,
        })
        .optional(),
      /** Set by `hookport forward`: a delivered attempt moves the URL's catch-up place. */
      forwarder: z.boolean().default(false),
      /**
       * Sign for a URL that is not loopback (127.0.0.1, [::1], localhost): without it such a send
       * is refused (403), and a GitLab token webhook is refused even with it.
       */
      allowRemoteSigning: z.boolean().default(false),
    }),
    output: z.object({ attempt: attemptSchema }),
  }),
  'deliveries.attempts': method({
    role: 'view',
    summary: 'Every attempt to forward a delivery, newest first',
    http: { method: 'GET', path: '/api/deliveries/:id/attempts' },
    input: z.object({ id: deliveryIdSchema }),
    output: z.object({ items: z.array(attemptSchema) }),
  }),
  'deliveries.forwardBacklog': method({
    role: 'view',
    summary:
      "What `hookport forward` has still to send: a webhook's Accepted deliveries after a place " +
      '(by default the last one forwarded to the URL), oldest first',
    http: { method: 'GET', path: '/api/webhooks/:uid/forward-backlog' },
    input: z.object({
      uid: webhookUidSchema,
      url: forwardUrlSchema,
      /** Start after this delivery instead of the URL's place. */
      after: deliveryIdSchema.optional(),
      limit: z.coerce.number().int().min(1).max(FORWARD_BACKLOG_MAX).default(100),
    }),
    output: z.object({
      /** The last delivery of this webhook `hookport forward` delivered to the URL, if any. */
      place: z.string().nullable(),
      /** The newest Accepted delivery of the webhook now (where `--from-now` starts). */
      newest: z.string().nullable(),
      items: z.array(backlogItemSchema),
      more: z.boolean(),
    }),
  }),
};
