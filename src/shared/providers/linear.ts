import { describeProvider } from './description.js';
import { field, toEventType } from './event-fields.js';

/** Linear (linear.app/developers/webhooks). */
export const linear = describeProvider({
  name: 'linear',
  label: 'Linear',
  credentialHeaders: ['linear-signature'],
  deliveryIdHeader: 'Linear-Delivery',
  // Its timestamp is the body's webhookTimestamp, which the signature covers.
  secretSentAs: null,
  signsTimestamp: true,
  eventType: {
    words: 'the body’s type (Issue)',
    header: null,
    read: (_header, payload) => toEventType(field(payload, 'type')),
  },
  secret: {
    maker: 'provider',
    hint: 'Linear makes this secret: copy it from its webhook settings and paste it here.',
  },
  setup: {
    where: 'Linear: Settings → API → Webhooks → New webhook.',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Data change events: the ones your automations need (Issues, Comments…).' },
      {
        text: 'Signing secret: Linear makes it and shows it on the webhook’s page. If it differs from the one entered here, use Rotate secret with Linear’s value.',
      },
    ],
  },
  options: null,
});
