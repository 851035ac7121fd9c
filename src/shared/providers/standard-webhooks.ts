import { describeProvider } from './description.js';
import { field, toEventType } from './event-fields.js';

/** Standard Webhooks (standardwebhooks.com), which Svix sends under `svix-*` names. */
export const standardWebhooks = describeProvider({
  name: 'standard-webhooks',
  label: 'Standard Webhooks (Svix and compatible)',
  credentialHeaders: ['webhook-signature', 'svix-signature'],
  deliveryIdHeader: 'webhook-id',
  secretSentAs: null,
  signsTimestamp: true,
  eventType: {
    words: 'the body’s type',
    header: null,
    read: (_header, payload) => toEventType(field(payload, 'type')),
  },
  secret: {
    maker: 'either',
    hint: 'Paste the sender’s signing secret, or leave it blank: the relay generates one (whsec_…) for you to give the sender.',
  },
  setup: {
    where: 'In the sending service’s webhook settings (Standard Webhooks: standardwebhooks.com).',
    steps: [
      { text: 'Endpoint URL:', value: 'url' },
      { text: 'Signing secret (whsec_…): give the sender this value.', value: 'secret' },
    ],
  },
  options: null,
});
