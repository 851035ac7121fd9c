import { z } from 'zod';
import { describeProvider } from './description.js';

/** Settings of the generic scheme, kept on the webhook (never secret). */
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

/** The generic scheme, for senders with no preset: the webhook's options say where and how. */
export const hmacSha256 = describeProvider({
  name: 'hmac-sha256',
  label: 'Generic HMAC-SHA256',
  // Its header is the webhook's own: see options.credentialHeader.
  credentialHeaders: [],
  deliveryIdHeader: null,
  secretSentAs: null,
  signsTimestamp: false,
  // The webhook's eventTypePath says where, as for token webhooks.
  eventType: null,
  secret: {
    maker: 'operator',
    hint: 'You choose this secret: press Generate (or type one), then give the same value to the sender. The checklist after Create shows it again.',
  },
  setup: {
    where: 'In the sending program or service.',
    steps: [
      { text: 'POST JSON to:', value: 'url' },
      {
        text: 'Sign the raw body with HMAC-SHA256 and this secret, in the header and encoding set here.',
        value: 'secret',
      },
    ],
  },
  options: {
    schema: genericHmacOptionsSchema,
    credentialHeader: (options) => options.header.toLowerCase(),
  },
});
