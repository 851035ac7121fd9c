import { z } from 'zod';
import { roleSchema } from './tokens.js';
import { method } from './define.js';

export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MIN_PER_WEBHOOK = 50;

export const settingsSchema = z.object({
  /** What the operator set; null means "the ingress listener's own address". */
  publicUrl: z.string().nullable(),
  /** The base every ingress URL is shown with. */
  effectivePublicUrl: z.string(),
  retentionDays: z.number().int(),
  retentionMinPerWebhook: z.number().int(),
});
export type Settings = z.infer<typeof settingsSchema>;

const publicUrlSchema = z
  .string()
  .url('must be an http(s) URL')
  .refine((u) => /^https?:\/\//i.test(u), 'must start with http:// or https://')
  .transform((u) => u.replace(/\/+$/, ''));

export const statusSchema = z.object({
  version: z.string(),
  role: roleSchema,
  ingressBaseUrl: z.string(),
  secretBackend: z.enum(['keychain', 'file']),
  deliveriesLastHour: z.number().int(),
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
    }),
    output: settingsSchema,
  }),
};
