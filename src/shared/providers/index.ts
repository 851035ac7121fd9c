import type { ProviderDescription } from './description.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { hmacSha256 } from './hmac-sha256.js';
import { linear } from './linear.js';
import { paddle } from './paddle.js';
import { shopify } from './shopify.js';
import { slack } from './slack.js';
import { standardWebhooks } from './standard-webhooks.js';
import { stripe } from './stripe.js';
import type { GenericHmacOptions } from './hmac-sha256.js';

export type {
  HeaderReader,
  ProviderDescription,
  ProviderEventType,
  ProviderSetup,
  SecretMaker,
  SetupStep,
} from './description.js';
export { genericHmacOptionsSchema, type GenericHmacOptions } from './hmac-sha256.js';

/**
 * Every signature provider a `signature` webhook may name (PRODUCT.md §4), in the order the API
 * lists them and the Add dialog offers them. A new provider is a description here and its
 * verifier in `src/main/ingress/schemes/`; everything else reads these.
 */
export const PROVIDERS = [
  standardWebhooks,
  stripe,
  github,
  slack,
  shopify,
  linear,
  gitlab,
  paddle,
  hmacSha256,
] as const;

export type SignatureSchemeName = (typeof PROVIDERS)[number]['name'];

export const PROVIDER_NAMES = PROVIDERS.map((provider) => provider.name) as unknown as readonly [
  SignatureSchemeName,
  ...SignatureSchemeName[],
];

const BY_NAME = new Map<string, ProviderDescription<SignatureSchemeName>>(
  PROVIDERS.map((provider) => [provider.name, provider]),
);

export function providerOf(name: SignatureSchemeName): ProviderDescription<SignatureSchemeName> {
  return BY_NAME.get(name)!;
}

/** A description for any string, or undefined when no provider has that name. */
export function findProvider(name: string): ProviderDescription<SignatureSchemeName> | undefined {
  return BY_NAME.get(name);
}

/** The settings that say how a webhook authenticates, as stored and read. */
export interface AuthSettingsLike {
  authMode: string;
  signatureScheme: SignatureSchemeName | null;
  signatureOptions: GenericHmacOptions | null;
}

/** Whether a webhook sets its event type by `eventTypePath`: providers name their own (§13). */
export function takesEventTypePath(authMode: string, scheme: SignatureSchemeName | null): boolean {
  return authMode !== 'signature' || (scheme !== null && providerOf(scheme).eventType === null);
}

/** Whether a scheme's credential header is the secret itself (GitLab's token), not a signature. */
export const sendsSecretItself = (scheme: string | null): boolean =>
  secretHeaderOf(scheme) !== null;

/** The header carrying the secret itself, lower case; null for a signature scheme or none. */
export function secretHeaderOf(scheme: string | null): string | null {
  return (scheme === null ? undefined : findProvider(scheme))?.secretSentAs?.toLowerCase() ?? null;
}

/** Whether a scheme takes `signatureOptions` (the generic HMAC's header, encoding, prefix). */
export const takesOptions = (scheme: SignatureSchemeName): boolean =>
  providerOf(scheme).options !== null;

/**
 * The header a webhook's own settings make a credential (the generic HMAC's signature header),
 * lower case; null when its scheme's credential headers are all fixed ones.
 */
export function ownCredentialHeader(
  webhook: Pick<AuthSettingsLike, 'signatureScheme' | 'signatureOptions'> | null | undefined,
): string | null {
  if (!webhook || webhook.signatureScheme === null || webhook.signatureOptions === null) {
    return null;
  }
  return (
    providerOf(webhook.signatureScheme).options?.credentialHeader(webhook.signatureOptions) ?? null
  );
}
