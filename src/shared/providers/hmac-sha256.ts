import { describeProvider } from './description.js';
import { genericHmacOptionsSchema } from './generic-hmac-options.js';

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
