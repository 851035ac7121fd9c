import { z } from 'zod';
import { isoTime, resourceNameSchema, webhookUidSchema } from './common.js';
import { method } from './define.js';

/** PRODUCT §19: the providers whose hooks a webhook may be linked to. */
export const LINK_KINDS = ['github', 'gitlab', 'stripe'] as const;
export const linkKindSchema = z.enum(LINK_KINDS, {
  error: () => `must be one of: ${LINK_KINDS.join(', ')}`,
});
export type LinkKind = z.infer<typeof linkKindSchema>;

/** How a person names each provider (messages, the UI). */
export const PROVIDER_NAMES: Record<LinkKind, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  stripe: 'Stripe',
};

export const DEFAULT_API_BASE_URLS: Record<LinkKind, string> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com/api/v4',
  stripe: 'https://api.stripe.com',
};

/** What each kind's `target` looks like, for the message that refuses another shape. */
export const TARGET_SHAPES: Record<LinkKind, string> = {
  github: '"owner/repo#<hook id>" or "org:<org>#<hook id>"',
  gitlab: '"<project id or path>#<hook id>"',
  stripe: '"we_…" (a webhook endpoint ID)',
};

const TARGET_PATTERNS: Record<LinkKind, RegExp> = {
  github:
    /^(?:org:[A-Za-z0-9][A-Za-z0-9-]{0,38}|[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100})#[0-9]{1,20}$/,
  gitlab: /^[A-Za-z0-9._%/-]{1,255}#[0-9]{1,20}$/,
  stripe: /^we_[A-Za-z0-9]{1,100}$/,
};

export function targetProblem(kind: LinkKind, target: string): string | null {
  return TARGET_PATTERNS[kind].test(target)
    ? null
    : `target: a ${PROVIDER_NAMES[kind]} link's target is ${TARGET_SHAPES[kind]}`;
}

export const apiBaseUrlSchema = z
  .string()
  .max(2048)
  .refine((text) => /^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(text), {
    message: 'must be an http(s) URL, e.g. https://github.example.com/api/v3',
  })
  .transform((text) => text.replace(/\/+$/, ''));

export const linkCheckSchema = z.object({
  at: isoTime,
  ok: z.boolean(),
  /** The URL the provider's hook sends to; null when the hook could not be read. */
  hookUrl: z.string().nullable(),
  pointsHere: z.boolean(),
  /** False when a person set it inactive or the provider disabled it; null when unknown. */
  active: z.boolean().nullable(),
  problems: z.array(z.string()),
});
export type LinkCheck = z.infer<typeof linkCheckSchema>;

export const linkRecoverySchema = z.object({
  at: isoTime,
  /** The start of the window asked about. */
  since: isoTime,
  asked: z.number().int(),
  redelivered: z.number().int(),
  alreadyHere: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.string()),
  /** How many of those asked have arrived here since (Accepted): "3 arrived". */
  arrived: z.number().int().optional(),
});
export type LinkRecovery = z.infer<typeof linkRecoverySchema>;

export const linkSchema = z.object({
  kind: linkKindSchema,
  target: z.string(),
  tokenSecretName: z.string(),
  apiBaseUrl: z.string(),
  keepPointed: z.boolean(),
  recover: z.boolean(),
  check: linkCheckSchema.nullable(),
  recovery: linkRecoverySchema.nullable(),
});
export type Link = z.infer<typeof linkSchema>;

const linkFields = z.strictObject({
  kind: linkKindSchema,
  target: z.string().trim().min(1, 'target: required').max(400),
  tokenSecretName: resourceNameSchema,
  apiBaseUrl: apiBaseUrlSchema.optional(),
  keepPointed: z.boolean().default(true),
  recover: z.boolean().default(true),
});

function checkTarget(input: { kind: LinkKind; target: string }, ctx: z.RefinementCtx): void {
  const problem = targetProblem(input.kind, input.target);
  if (problem) ctx.addIssue({ code: 'custom', path: ['target'], message: problem });
}

/** A link as a definition file's `link:` map or an API caller gives it. */
export const linkInputSchema = linkFields.superRefine(checkTarget);
export type LinkInput = z.output<typeof linkInputSchema>;

/** `since`: ISO 8601 or epoch milliseconds, as `deliveries.list` takes its bounds. */
export const sinceSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const text = String(value).trim();
  const ms = /^\d{1,15}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) {
    ctx.addIssue({
      code: 'custom',
      message: 'since: must be an ISO 8601 time (2025-01-31T12:00:00Z) or epoch milliseconds',
    });
    return z.NEVER;
  }
  return ms;
});

/** One failed provider delivery and what a recovery did about it (`hookport recover`). */
export const recoveredItemSchema = z.object({
  at: isoTime,
  providerDeliveryId: z.string(),
  event: z.string().nullable(),
  outcome: z.enum(['asked', 'already here', 'failed', 'would ask']),
});

export const linkMethods = {
  'links.get': method({
    role: 'view',
    summary: "Read a webhook's provider link (null when it has none)",
    http: { method: 'GET', path: '/api/webhooks/:uid/link' },
    input: z.object({ uid: webhookUidSchema }),
    output: linkSchema.nullable(),
  }),
  'links.put': method({
    role: 'manage',
    summary: "Link a webhook to the provider's hook that sends to it (checked before it is saved)",
    http: { method: 'PUT', path: '/api/webhooks/:uid/link' },
    input: linkFields.extend({ uid: webhookUidSchema }).superRefine(checkTarget),
    output: linkSchema,
  }),
  'links.delete': method({
    role: 'manage',
    summary: "Remove a webhook's provider link (the provider's hook is kept)",
    http: { method: 'DELETE', path: '/api/webhooks/:uid/link' },
    input: z.object({ uid: webhookUidSchema }),
    output: z.object({ uid: webhookUidSchema, deleted: z.literal(true) }),
  }),
  'links.check': method({
    role: 'manage',
    summary: "Read the provider's hook now and say what would stop it reaching the relay",
    http: { method: 'POST', path: '/api/webhooks/:uid/link/check' },
    input: z.object({ uid: webhookUidSchema }),
    output: linkSchema,
  }),
  'links.recover': method({
    role: 'manage',
    summary: 'Ask the provider to deliver again what failed to reach the relay',
    http: { method: 'POST', path: '/api/webhooks/:uid/link/recover' },
    input: z.strictObject({
      uid: webhookUidSchema,
      since: sinceSchema.optional(),
      /** `hookport recover --dry-run`: list what would be asked, ask nothing. */
      dryRun: z.boolean().default(false),
    }),
    output: linkSchema.extend({ items: z.array(recoveredItemSchema) }),
  }),
};
