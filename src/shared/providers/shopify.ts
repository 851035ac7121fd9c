import { describeProvider } from './description.js';
import { headerEvent } from './event-fields.js';

/**
 * Shopify (shopify.dev, "Webhooks"; Settings → Notifications). Its Events API sends the same
 * headers without the `X-`.
 */
export const shopify = describeProvider({
  name: 'shopify',
  label: 'Shopify',
  credentialHeaders: ['x-shopify-hmac-sha256', 'shopify-hmac-sha256'],
  deliveryIdHeader: 'X-Shopify-Webhook-Id',
  secretSentAs: null,
  signsTimestamp: false,
  eventType: {
    words: 'X-Shopify-Topic (orders/paid)',
    header: 'X-Shopify-Topic',
    read: (header) =>
      headerEvent(header, 'X-Shopify-Topic') ?? headerEvent(header, 'Shopify-Topic'),
  },
  secret: {
    maker: 'provider',
    hint: 'Shopify makes this secret: copy it from its webhook settings and paste it here.',
  },
  setup: {
    where:
      'Shopify admin: Settings → Notifications → Webhooks → Create webhook (or your app’s webhook subscriptions).',
    steps: [
      { text: 'Format: JSON. URL:', value: 'url' },
      { text: 'Event: the topic your automations need (for example Order payment).' },
      {
        text: 'Signing secret: the key Shopify shows under the webhook list (for an app, the app’s client secret). If it differs from the one entered here, use Rotate secret.',
      },
    ],
  },
  options: null,
});
