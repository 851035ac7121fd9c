import { z } from 'zod';
import { factoryIdSchema, isoTime, optionalFactorySchema, resourceNameSchema } from './common.js';
import { method } from './define.js';

export const SECRET_BACKENDS = ['keychain', 'file', 'postgres'] as const;

export const teamSecretSchema = z.object({
  factory: factoryIdSchema,
  name: z.string(),
  /**
   * 8 hex digits of an HMAC-SHA256 of the value under a relay-local key: tells two values apart,
   * reveals nothing usable. Null for a `view` token, and where the value is missing.
   */
  fingerprint: z.string().nullable(),
  createdAt: isoTime,
  rotatedAt: isoTime.nullable(),
  /** Live webhooks that authenticate with it; rotating changes all of them at once. */
  usedBy: z.array(z.object({ uid: z.string(), name: z.string() })),
});
export type TeamSecret = z.infer<typeof teamSecretSchema>;

const valueSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(4096, 'must be at most 4096 characters')
  .refine((v) => v === v.trim(), 'remove the spaces or line breaks around the value');

/** The only responses that carry a secret value: create and rotate, once. */
const revealed = z.object({ secret: teamSecretSchema, value: z.string() });

export const secretMethods = {
  'secrets.list': method({
    role: 'view',
    summary: 'Team secrets of a factory (names and fingerprints, never values) and the backend',
    http: { method: 'GET', path: '/api/secrets' },
    input: z.object({ factory: optionalFactorySchema }),
    output: z.object({
      items: z.array(teamSecretSchema),
      backend: z.enum(SECRET_BACKENDS),
      backendDescription: z.string(),
    }),
  }),
  'secrets.create': method({
    role: 'manage',
    summary: 'Create a team secret, generated or supplied; its value is shown once',
    http: { method: 'POST', path: '/api/secrets', status: 201 },
    input: z.strictObject({
      factory: optionalFactorySchema,
      name: resourceNameSchema,
      value: valueSchema.optional(),
    }),
    output: revealed,
  }),
  'secrets.rotate': method({
    role: 'manage',
    summary:
      'Rotate a team secret: every webhook using it switches at once; the value is shown once',
    http: { method: 'POST', path: '/api/secrets/:name/rotate' },
    input: z.strictObject({
      factory: optionalFactorySchema,
      name: resourceNameSchema,
      value: valueSchema.optional(),
    }),
    output: revealed,
  }),
  'secrets.delete': method({
    role: 'manage',
    summary: 'Delete a team secret no webhook uses',
    http: { method: 'DELETE', path: '/api/secrets/:name' },
    input: z.object({ factory: optionalFactorySchema, name: resourceNameSchema }),
    output: z.object({ name: z.string(), deleted: z.literal(true) }),
  }),
};
