import type { LinkKind } from '../../../shared/contract/links.js';

/** What each provider's link form says beside its fields (PRODUCT §19). */
export const LINK_FORM_WORDS: Record<
  LinkKind,
  { targetExample: string; token: string; selfHosted: string }
> = {
  github: {
    targetExample: 'acme/api#123456789',
    token:
      'A GitHub token that can administer the hook (admin:repo_hook, or admin:org_hook for an organization hook), kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'GitHub Enterprise Server: https://HOST/api/v3.',
  },
  gitlab: {
    targetExample: 'acme%2Fapi#42 (or the project id: 1234#42)',
    token:
      'A GitLab token with the api scope, from a Maintainer of the project, kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'Self-managed GitLab: https://HOST/api/v4.',
  },
  stripe: {
    targetExample: 'we_1PqRsTuVwXyZ',
    token:
      'A Stripe secret key (sk_…), or a restricted key with Webhook Endpoints write and Events read, kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'Leave it blank for Stripe itself.',
  },
};

/** A webhook that checks GitLab's or Stripe's scheme is most likely linked to that provider. */
export function likelyKind(signatureScheme: string | null): LinkKind {
  return signatureScheme === 'gitlab' || signatureScheme === 'stripe' ? signatureScheme : 'github';
}
