import { PROVIDER_NAMES, type LinkCheck, type LinkKind } from '../../shared/contract/links.js';
import type { WebhookRecord } from '../store/webhooks.js';
import { isUnreachableFromInternet } from './private-address.js';
import type { HookState } from './provider.js';

/** What a check compares the hook with: this webhook's ingress URL now. */
export interface ExpectedHook {
  kind: LinkKind;
  webhook: Pick<WebhookRecord, 'authMode' | 'signatureScheme'>;
  /** The full URL (a URL token included) the provider must send to. */
  url: string;
  /** The same URL as the API shows it (a URL token as `{token}`). */
  shownUrl: string;
  /** The URL token's value, hidden wherever a hook URL is shown; null without one. */
  urlToken: string | null;
  keepPointed: boolean;
}

/** A sentence per reason the provider's deliveries would not be Accepted here. */
function schemeProblem(expected: ExpectedHook): string | null {
  const { authMode, signatureScheme } = expected.webhook;
  const provider = PROVIDER_NAMES[expected.kind];
  if (authMode === 'url_token') return null;
  if (authMode === 'signature' && signatureScheme === expected.kind) return null;
  return `This webhook checks ${authMode === 'signature' ? `the ${signatureScheme} signature` : 'a bearer token'}, which ${provider} does not send; use a webhook with the ${expected.kind} signature scheme and the hook's secret (or a URL token).`;
}

export function hidden(url: string | null, expected: ExpectedHook): string | null {
  if (url === null || expected.urlToken === null) return url;
  return url.split(expected.urlToken).join('{token}');
}

/** The check's answer from the provider's hook (or the reason it could not be read). */
export function checkFrom(
  describe: string,
  hook: HookState | null,
  readError: string | null,
  expected: ExpectedHook,
  at: number,
): LinkCheck {
  const provider = PROVIDER_NAMES[expected.kind];
  const problems: string[] = [];
  if (readError) problems.push(readError);
  if (isUnreachableFromInternet(expected.url)) {
    problems.push(
      `This webhook's ingress URL ${expected.shownUrl} is on this machine or a private network, which ${provider} cannot reach; set a public URL or start a tunnel (Settings → Public URL), and the relay points the hook there.`,
    );
  }
  const pointsHere = hook?.url === expected.url;
  if (hook && !pointsHere) {
    problems.push(
      `${describe} sends to ${hidden(hook.url, expected) ?? 'no URL'}, not to this webhook's ${expected.shownUrl}; ${
        expected.keepPointed
          ? 'the relay sets it once its ingress URL is public'
          : "set the hook's URL to it, or turn on keep pointed"
      }.`,
    );
  }
  if (hook && !hook.active) {
    problems.push(
      hook.disabledByProvider
        ? `${provider} disabled ${describe} after failed deliveries; ${
            expected.keepPointed
              ? `the relay enables it again once it is reachable (or enable it in ${provider}'s hook settings)`
              : `enable it in ${provider}'s hook settings, or turn on keep pointed`
          }.`
        : `${describe} is set inactive on ${provider}: a person turned it off, so the relay leaves it; turn it on in the hook's settings.`,
    );
  }
  if (hook) problems.push(...hook.problems);
  const scheme = schemeProblem(expected);
  if (scheme) problems.push(scheme);
  return {
    at: new Date(at).toISOString(),
    ok: problems.length === 0,
    hookUrl: hidden(hook?.url ?? null, expected),
    pointsHere,
    active: hook ? hook.active : null,
    problems,
  };
}
