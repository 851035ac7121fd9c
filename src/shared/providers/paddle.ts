import { describeProvider } from './description.js';
import { field, toEventType } from './event-fields.js';

/** Paddle Billing (developer.paddle.com, "Notification destinations"). */
export const paddle = describeProvider({
  name: 'paddle',
  label: 'Paddle',
  credentialHeaders: ['paddle-signature'],
  deliveryIdHeader: null,
  secretSentAs: null,
  signsTimestamp: true,
  eventType: {
    words: 'the body’s event_type',
    header: null,
    read: (_header, payload) => toEventType(field(payload, 'event_type')),
  },
  secret: {
    maker: 'provider',
    hint: 'Paddle makes this secret: copy it from its webhook settings and paste it here.',
  },
  setup: {
    where: 'Paddle: Developer tools → Notifications → New destination (type: webhook).',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Events: the ones your automations need (for example transaction.completed).' },
      {
        text: 'Secret key: Paddle makes it, shown on the destination. If it differs from the one entered here, use Rotate secret.',
      },
    ],
  },
  options: null,
});
