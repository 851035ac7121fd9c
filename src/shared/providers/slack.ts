import { describeProvider } from './description.js';
import { field, toEventType } from './event-fields.js';

/** Slack (api.slack.com/apis/events-api, "Event Subscriptions"). */
export const slack = describeProvider({
  name: 'slack',
  label: 'Slack',
  credentialHeaders: ['x-slack-signature'],
  deliveryIdHeader: null,
  secretSentAs: null,
  signsTimestamp: true,
  eventType: {
    words: 'the body’s type, or an event callback’s event.type',
    header: null,
    read: (_header, payload) => {
      // Events API callbacks wrap the event: its type is the one that matters.
      const type = field(payload, 'type');
      return toEventType(type === 'event_callback' ? field(field(payload, 'event'), 'type') : type);
    },
  },
  secret: {
    maker: 'provider',
    hint: 'Slack makes this secret: copy it from its webhook settings and paste it here.',
  },
  setup: {
    where: 'api.slack.com/apps → your app → Event Subscriptions.',
    steps: [
      { text: 'Request URL:', value: 'url' },
      { text: 'Subscribe to the bot events your automations need.' },
      {
        text: 'Signing secret: Basic Information → App Credentials → Signing Secret. If it differs from the one entered here, use Rotate secret.',
      },
      {
        text: 'Slack checks a new Request URL with a url_verification challenge it expects echoed back; the relay logs it (Accepted) but does not echo it.',
      },
    ],
  },
  options: null,
});
