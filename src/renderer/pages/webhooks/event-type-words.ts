import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';

/** Where each provider scheme names its event (§13), in the operator's words. */
export const SCHEME_EVENT_SOURCES: Record<Exclude<SignatureSchemeName, 'hmac-sha256'>, string> = {
  github: 'X-GitHub-Event, plus the body’s action (pull_request.opened)',
  shopify: 'X-Shopify-Topic (orders/paid)',
  gitlab: 'X-Gitlab-Event (Push Hook)',
  stripe: 'the body’s type (invoice.paid)',
  'standard-webhooks': 'the body’s type',
  linear: 'the body’s type (Issue)',
  slack: 'the body’s type, or an event callback’s event.type',
  paddle: 'the body’s event_type',
};

/** Whether the webhook takes an eventTypePath: provider schemes name their own event. */
export const takesEventTypePath = (authMode: string, scheme: SignatureSchemeName | null): boolean =>
  authMode !== 'signature' || scheme === 'hmac-sha256';

export const EVENT_TYPE_PATH_HINT =
  'A dotted path into the JSON body (type, event.type), or header:<name> (header:X-Event). Blank: no event type.';
