import { describeProvider } from './description.js';
import { field, toEventType } from './event-fields.js';

/** Stripe (docs.stripe.com/webhooks, "Webhook endpoints"). */
export const stripe = describeProvider({
  name: 'stripe',
  label: 'Stripe',
  credentialHeaders: ['stripe-signature'],
  deliveryIdHeader: null,
  secretSentAs: null,
  signsTimestamp: true,
  eventType: {
    words: 'the body’s type (invoice.paid)',
    header: null,
    read: (_header, payload) => toEventType(field(payload, 'type')),
  },
  secret: {
    maker: 'provider',
    hint: 'Stripe makes this secret: copy it from its webhook settings and paste it here.',
  },
  setup: {
    where: 'Stripe Dashboard: Developers → Webhooks → Add endpoint.',
    steps: [
      { text: 'Endpoint URL:', value: 'url' },
      { text: 'Select the events to send (for example invoice.paid).' },
      {
        text: 'Signing secret: Stripe makes it (whsec_…), shown on the endpoint’s page after it is added. If it differs from the one entered here, use Rotate secret with Stripe’s value.',
      },
    ],
  },
  options: null,
});
