import { z } from 'zod';

/** Settings of the generic `hmac-sha256` scheme, kept on the webhook (never secret). */
export const genericHmacOptionsSchema = z.strictObject({
  header: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be an HTTP header name')
    .transform((h) => h.toLowerCase()),
  encoding: z.enum(['hex', 'base64'], { error: () => 'must be "hex" or "base64"' }).default('hex'),
  // A header value cannot carry control characters, and HTTP trims surrounding spaces.
  prefix: z
    .string()
    .max(32)
    .regex(
      /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/,
      'must be printable ASCII without leading or trailing spaces',
    )
    .default(''),
});

export type GenericHmacOptions = z.infer<typeof genericHmacOptionsSchema>;
