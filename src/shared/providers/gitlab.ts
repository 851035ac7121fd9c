import { describeProvider } from './description.js';
import { headerEvent } from './event-fields.js';

/** GitLab (docs.gitlab.com, "Webhooks"). */
export const gitlab = describeProvider({
  name: 'gitlab',
  label: 'GitLab',
  credentialHeaders: ['x-gitlab-token'],
  // Idempotency-Key stays the same when GitLab resends; X-Gitlab-Event-UUID does not.
  deliveryIdHeader: 'Idempotency-Key',
  secretSentAs: 'X-Gitlab-Token',
  signsTimestamp: false,
  eventType: {
    words: 'X-Gitlab-Event (Push Hook)',
    header: 'X-Gitlab-Event',
    read: (header) => headerEvent(header, 'X-Gitlab-Event'),
  },
  secret: {
    maker: 'operator',
    hint: 'You choose this secret: press Generate (or type one), then give the same value to GitLab’s Secret token field. The checklist after Create shows it again.',
  },
  setup: {
    where: 'In the project or group: Settings → Webhooks → Add new webhook.',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Secret token: the signing secret of this webhook.', value: 'secret' },
      { text: 'Trigger: the events your automations need.' },
      { text: 'Add webhook, then Test → Push events to send one.' },
    ],
  },
  options: null,
});
