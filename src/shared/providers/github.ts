import { describeProvider } from './description.js';
import { field, headerEvent, toEventType } from './event-fields.js';

/** GitHub (docs.github.com, "Creating webhooks", "Validating webhook deliveries"). */
export const github = describeProvider({
  name: 'github',
  label: 'GitHub',
  // X-Hub-Signature is the legacy SHA-1 signature GitHub still sends beside the SHA-256 one.
  credentialHeaders: ['x-hub-signature-256', 'x-hub-signature'],
  deliveryIdHeader: 'X-GitHub-Delivery',
  secretSentAs: null,
  signsTimestamp: false,
  eventType: {
    words: 'X-GitHub-Event, plus the body’s action (pull_request.opened)',
    header: 'X-GitHub-Event',
    read: (header, payload) => {
      const event = headerEvent(header, 'X-GitHub-Event');
      if (event === null) return null;
      const action = toEventType(field(payload, 'action'));
      return (action === null ? null : toEventType(`${event}.${action}`)) ?? event;
    },
  },
  secret: {
    maker: 'operator',
    hint: 'You choose this secret: press Generate (or type one), then give the same value to GitHub’s Secret field. The checklist after Create shows it again.',
  },
  setup: {
    where: 'In the repository or organization: Settings → Webhooks → Add webhook.',
    steps: [
      { text: 'Payload URL:', value: 'url' },
      {
        text: 'Content type: application/json. GitHub’s default (application/x-www-form-urlencoded) is refused as invalid JSON.',
      },
      { text: 'Secret: the signing secret of this webhook.', value: 'secret' },
      {
        text: 'Which events: the ones your automations need (“Send me everything” is fine to start).',
      },
      { text: 'Add webhook. GitHub sends a ping at once: it appears below as “ping”.' },
    ],
  },
  options: null,
});
