import { z } from 'zod';
import { isCredentialHeader } from '../credential-headers.js';
import { eventTypePathSchema } from '../event-type.js';
import { genericHmacOptionsSchema, signatureSchemeSchema } from '../signature-schemes.js';
import {
  factoryIdSchema,
  isoTime,
  listOf,
  optionalFactorySchema,
  resourceNameSchema,
  webhookUidSchema,
} from './common.js';
import { method } from './define.js';
import { linkSchema } from './links.js';
import { authSettingsSchema } from '../providers/auth-settings.js';

export const AUTH_MODES = ['token', 'url_token', 'signature'] as const;
export const authModeSchema = z.enum(AUTH_MODES, {
  error: () => `must be one of: ${AUTH_MODES.join(', ')}`,
});
export type AuthMode = z.infer<typeof authModeSchema>;

/** A URL-token secret is part of a URL path, so only unreserved characters, and long enough to guess badly. */
export const URL_SAFE_SECRET = /^[A-Za-z0-9._~-]{16,}$/;

export const deliveryIdHeaderSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name (letters, digits and "-")')
  // The identity is stored and shown: a credential header would put the credential there.
  .refine((name) => !isCredentialHeader(name), {
    message: 'carries a credential, which is never stored; name the header holding the event ID',
  });

/** Only these webhooks name their event type by setting; signature schemes have their own (§13). */
export { EVENT_TYPE_PATH_NOTE } from '../providers/auth-settings.js';

const webhookDetailsSchema = z.object({
  secretName: z.string(),
  deliveryIdHeader: z.string().nullable(),
  /** A JSON path into the body or `header:<name>`: where the event type is read (§13). */
  eventTypePath: z.string().nullable(),
  enabled: z.boolean(),
  ingressUrl: z.string(),
  createdAt: isoTime,
  /** The provider link (§19): read and list answer it, null when there is none. */
  link: linkSchema.nullable().optional(),
});

// Three parts, so the fields keep their order on the wire: the auth settings are one union.
export const webhookSchema = z
  .object({
    uid: webhookUidSchema,
    factory: factoryIdSchema,
    name: z.string(),
  })
  .and(authSettingsSchema)
  .and(webhookDetailsSchema);
export type Webhook = z.infer<typeof webhookSchema>;

/** `"secret": ""` means blank, as leaving it out does (§13): generated where the relay may. */
const optionalSecret = z
  .string()
  .max(4096, 'must be at most 4096 characters')
  .transform((value) => (value === '' ? undefined : value))
  .optional();

export const createWebhookInput = z.strictObject({
  factory: optionalFactorySchema,
  name: resourceNameSchema,
  authMode: authModeSchema.default('token'),
  signatureScheme: signatureSchemeSchema.optional(),
  signatureOptions: genericHmacOptionsSchema.optional(),
  secret: optionalSecret,
  secretName: resourceNameSchema.optional(),
  deliveryIdHeader: deliveryIdHeaderSchema.optional(),
  eventTypePath: eventTypePathSchema.optional(),
});

/** The only responses that carry a secret value: create and rotate, once. */
const oneTimeSecret = z.object({
  /** null when an existing team secret was referenced: its value is not shown again. */
  secret: z.string().nullable(),
  ingressUrl: z.string(),
});

export const webhookMethods = {
  'webhooks.list': method({
    role: 'view',
    summary: 'List the webhooks of a factory',
    http: { method: 'GET', path: '/api/webhooks' },
    input: z.object({ factory: optionalFactorySchema }),
    output: listOf(webhookSchema),
  }),
  'webhooks.create': method({
    role: 'manage',
    summary: 'Add webhook',
    http: { method: 'POST', path: '/api/webhooks', status: 201 },
    input: createWebhookInput,
    output: oneTimeSecret.extend({ webhook: webhookSchema }),
  }),
  'webhooks.get': method({
    role: 'view',
    summary: 'Read one webhook (never its secret)',
    http: { method: 'GET', path: '/api/webhooks/:uid' },
    input: z.object({ uid: webhookUidSchema }),
    output: webhookSchema,
  }),
  'webhooks.update': method({
    role: 'manage',
    summary: 'Enable, disable, rename, or change the delivery ID header or the event type path',
    http: { method: 'PATCH', path: '/api/webhooks/:uid' },
    input: z.strictObject({
      uid: webhookUidSchema,
      enabled: z.boolean().optional(),
      deliveryIdHeader: deliveryIdHeaderSchema.nullable().optional(),
      eventTypePath: eventTypePathSchema.nullable().optional(),
      name: resourceNameSchema.optional(),
    }),
    output: webhookSchema,
  }),
  'webhooks.rotate': method({
    role: 'manage',
    summary: 'Rotate secret',
    http: { method: 'POST', path: '/api/webhooks/:uid/rotate' },
    input: z.strictObject({ uid: webhookUidSchema, secret: optionalSecret }),
    output: oneTimeSecret.extend({ secret: z.string() }),
  }),
  'webhooks.delete': method({
    role: 'manage',
    summary: 'Delete a webhook; senders get 404 at once',
    http: { method: 'DELETE', path: '/api/webhooks/:uid' },
    input: z.object({ uid: webhookUidSchema }),
    output: z.object({ uid: webhookUidSchema, deleted: z.literal(true) }),
  }),
};
