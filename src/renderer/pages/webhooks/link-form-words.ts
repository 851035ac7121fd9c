import type { LinkKind } from '../../../shared/contract/links.js';

/** What each provider's link form asks for and says beside its fields (PRODUCT §19). */
export const LINK_FORM_WORDS: Record<
  LinkKind,
  {
    /** The first field: where the hook lives (Stripe: the endpoint itself). */
    place: { label: string; hint: string };
    /** The hook's ID field; null where the first field names the hook already. */
    hookId: { hint: string } | null;
    token: string;
    selfHosted: string;
  }
> = {
  github: {
    place: {
      label: 'Repository',
      hint: "owner/repo, or org:NAME for an organization hook. Or paste the hook's settings page address (https://github.com/acme/api/settings/hooks/123456789): both fields fill in.",
    },
    hookId: { hint: "The number at the end of the hook's settings page address." },
    token:
      'A GitHub token that can administer the hook (admin:repo_hook, or admin:org_hook for an organization hook), kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'GitHub Enterprise Server: https://HOST/api/v3.',
  },
  gitlab: {
    place: {
      label: 'Project',
      hint: "The project's path (acme/api) or ID (1234). Or paste the hook's edit page address (https://gitlab.com/acme/api/-/hooks/42/edit): both fields fill in.",
    },
    hookId: { hint: 'Settings → Webhooks → Edit: the number in the page address.' },
    token:
      'A GitLab token with the api scope, from a Maintainer of the project, kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'Self-managed GitLab: https://HOST/api/v4.',
  },
  stripe: {
    place: {
      label: 'Webhook endpoint ID',
      hint: "we_…, shown on the endpoint's page in the Stripe Dashboard (Developers → Webhooks); pasting that page's address works too.",
    },
    hookId: null,
    token:
      'A Stripe secret key (sk_…), or a restricted key with Webhook Endpoints write and Events read, kept as a team secret; it is sent only to the API base URL below.',
    selfHosted: 'Leave it blank for Stripe itself.',
  },
};

/** A webhook that checks GitLab's or Stripe's scheme is most likely linked to that provider. */
export function likelyKind(signatureScheme: string | null): LinkKind {
  return signatureScheme === 'gitlab' || signatureScheme === 'stripe' ? signatureScheme : 'github';
}
