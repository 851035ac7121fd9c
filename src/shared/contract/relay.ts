import { z } from 'zod';
import { refusalCountsSchema } from './refusals.js';
import { roleSchema } from './tokens.js';
import { SECRET_BACKENDS } from './secrets.js';
import { method } from './define.js';
import { tunnelChoiceSchema } from './tunnel.js';

export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MIN_PER_WEBHOOK = 50;

export const settingsSchema = z.object({
  /** What the operator set; null means "the ingress listener's own address". */
  publicUrl: z.string().nullable(),
  /** The base every ingress URL is shown with. */
  effectivePublicUrl: z.string(),
  retentionDays: z.number().int(),
  retentionMinPerWebhook: z.number().int(),
  /** The tunnel this relay starts (PRODUCT §18); null: none. */
  tunnel: tunnelChoiceSchema.nullable(),
  /** Desktop: notify when the tunnel goes down or comes back, and of recovered deliveries (§20). */
  desktopNotifications: z.boolean(),
  /** Desktop: open Hookport at login (opt-in). */
  openAtLogin: z.boolean(),
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * Why a public base URL cannot prefix ingress URLs, or null. A path is kept (a proxy may serve
 * the relay under one); a query, fragment or credentials would end up in the middle of every URL.
 */
export function publicUrlProblem(value: string): string | null {
  if (!URL.canParse(value) || !/^https?:\/\/[^\s/?#]+/i.test(value)) {
    return 'must be an http(s) URL such as https://abc.trycloudflare.com';
  }
  const url = new URL(value);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#')) {
    return 'must not have a query (?…) or fragment (#…): ingress paths are added after it';
  }
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  return null;
}

const publicUrlSchema = z
  .string()
  .superRefine((value, ctx) => {
    const problem = publicUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform((u) => u.replace(/\/+$/, ''));

export const TUNNEL_STATES = ['starting', 'up', 'down', 'off'] as const;

/** The tunnel this relay runs (PRODUCT §18); `off` when none is configured. */
export const tunnelStatusSchema = z.object({
  kind: z.string().nullable(),
  state: z.enum(TUNNEL_STATES),
  url: z.string().nullable(),
  /** ISO 8601: when it entered this state. */
  since: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type TunnelStatus = z.infer<typeof tunnelStatusSchema>;

/** The last time the relay found the machine had slept (PRODUCT §20). */
export const lastWakeSchema = z.object({
  at: z.string(),
  sleptSeconds: z.number(),
  /** Deliveries provider links' recoveries brought since the wake (§20's status line). */
  recovered: z.number().int().optional(),
});
export type LastWake = z.infer<typeof lastWakeSchema>;

export const statusSchema = z.object({
  version: z.string(),
  role: roleSchema,
  ingressBaseUrl: z.string(),
  secretBackend: z.enum(SECRET_BACKENDS),
  deliveriesLastHour: z.number().int(),
  /** Refused requests (404, 405, 429) in the last hour, by status. */
  refusalsLastHour: refusalCountsSchema,
  /** How to run `hookport` on the relay's machine, as sample commands print it. */
  cliCommand: z.string(),
  tunnel: tunnelStatusSchema,
  lastWake: lastWakeSchema.nullable(),
});
export type RelayStatus = z.infer<typeof statusSchema>;

export const relayMethods = {
  'relay.status': method({
    role: 'view',
    summary: 'What the status line shows, and the caller’s role',
    http: { method: 'GET', path: '/api/status' },
    input: z.object({}),
    output: statusSchema,
  }),
  'settings.get': method({
    role: 'view',
    summary: 'Read relay settings',
    http: { method: 'GET', path: '/api/settings' },
    input: z.object({}),
    output: settingsSchema,
  }),
  'settings.update': method({
    role: 'manage',
    summary: 'Change the public base URL or raise retention',
    http: { method: 'PATCH', path: '/api/settings' },
    input: z.strictObject({
      publicUrl: publicUrlSchema.nullable().optional(),
      retentionDays: z
        .number()
        .int()
        .min(RETENTION_MIN_DAYS, `must be at least ${RETENTION_MIN_DAYS} days`)
        .max(3650)
        .optional(),
      retentionMinPerWebhook: z
        .number()
        .int()
        .min(RETENTION_MIN_PER_WEBHOOK, `must be at least ${RETENTION_MIN_PER_WEBHOOK}`)
        .max(1_000_000)
        .optional(),
      tunnel: tunnelChoiceSchema.nullable().optional(),
      desktopNotifications: z.boolean().optional(),
      openAtLogin: z.boolean().optional(),
    }),
    output: settingsSchema,
  }),
};
