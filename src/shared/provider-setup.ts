import type { SignatureSchemeName } from './signature-schemes.js';

/**
 * What the operator does at the sender once a webhook exists: one short checklist per provider,
 * from the provider's own webhook settings page (GitHub "Creating webhooks", Stripe "Webhook
 * endpoints", GitLab "Webhooks", Linear "Webhooks", Shopify "Webhooks" in Settings →
 * Notifications, Slack "Events API", Paddle "Notification destinations", standardwebhooks.com).
 *
 * A step names a value to paste with `{url}` or `{secret}`, shown beside it with a copy button.
 */
export interface SetupStep {
  text: string;
  /** The value this step pastes, shown after the text. */
  value?: 'url' | 'secret';
}

export interface ProviderSetup {
  /** Where the provider's webhook settings are. */
  where: string;
  steps: SetupStep[];
}

/**
 * Schemes whose secret the operator invents and gives the provider (GitHub's Secret, GitLab's
 * Secret token, a generic HMAC sender): the Add dialog offers Generate. The other providers make
 * the secret themselves and show it in their settings, to be pasted here.
 */
export const OPERATOR_INVENTS_SECRET: readonly SignatureSchemeName[] = [
  'github',
  'gitlab',
  'hmac-sha256',
];

export const PROVIDER_SETUP: Record<SignatureSchemeName, ProviderSetup> = {
  github: {
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
  stripe: {
    where: 'Stripe Dashboard: Developers → Webhooks → Add endpoint.',
    steps: [
      { text: 'Endpoint URL:', value: 'url' },
      { text: 'Select the events to send (for example invoice.paid).' },
      {
        text: 'Signing secret: Stripe makes it (whsec_…), shown on the endpoint’s page after it is added. If it differs from the one entered here, use Rotate secret with Stripe’s value.',
      },
    ],
  },
  gitlab: {
    where: 'In the project or group: Settings → Webhooks → Add new webhook.',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Secret token: the signing secret of this webhook.', value: 'secret' },
      { text: 'Trigger: the events your automations need.' },
      { text: 'Add webhook, then Test → Push events to send one.' },
    ],
  },
  linear: {
    where: 'Linear: Settings → API → Webhooks → New webhook.',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Data change events: the ones your automations need (Issues, Comments…).' },
      {
        text: 'Signing secret: Linear makes it and shows it on the webhook’s page. If it differs from the one entered here, use Rotate secret with Linear’s value.',
      },
    ],
  },
  shopify: {
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
  slack: {
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
  paddle: {
    where: 'Paddle: Developer tools → Notifications → New destination (type: webhook).',
    steps: [
      { text: 'URL:', value: 'url' },
      { text: 'Events: the ones your automations need (for example transaction.completed).' },
      {
        text: 'Secret key: Paddle makes it, shown on the destination. If it differs from the one entered here, use Rotate secret.',
      },
    ],
  },
  'standard-webhooks': {
    where: 'In the sending service’s webhook settings (Standard Webhooks: standardwebhooks.com).',
    steps: [
      { text: 'Endpoint URL:', value: 'url' },
      { text: 'Signing secret (whsec_…): give the sender this value.', value: 'secret' },
    ],
  },
  'hmac-sha256': {
    where: 'In the sending program or service.',
    steps: [
      { text: 'POST JSON to:', value: 'url' },
      {
        text: 'Sign the raw body with HMAC-SHA256 and this secret, in the header and encoding set here.',
        value: 'secret',
      },
    ],
  },
};

/** Token and URL-token webhooks: the sender is a program of the operator's. */
export const TOKEN_SETUP: Record<'token' | 'url_token', ProviderSetup> = {
  token: {
    where: 'In the sending program or service.',
    steps: [
      { text: 'POST JSON to:', value: 'url' },
      { text: 'With the header Authorization: Bearer and this secret.', value: 'secret' },
    ],
  },
  url_token: {
    where: 'In the sending program or service.',
    steps: [{ text: 'POST JSON to this URL (it holds the secret):', value: 'url' }],
  },
};

/** Whether a URL's host is this machine only (senders on the internet cannot reach it). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
