import type { z } from 'zod';
import type { GenericHmacOptions } from './hmac-sha256.js';

/**
 * What a signature provider is, as both the relay and the desktop app need to know it: one
 * description per provider (`<name>.ts` here), listed in `index.ts`. How it verifies and signs
 * lives in its main-side twin, `src/main/ingress/schemes/<name>.ts`.
 */

/** The first value of a request header, by its lower-case name; undefined when it was not sent. */
export type HeaderReader = (lowerCaseName: string) => string | undefined;

/**
 * One step of the setup checklist shown after Add webhook. A step names a value to paste with
 * `value`, shown beside it with a copy button.
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
 * Who makes the signing secret: the operator invents it and gives it to the provider (the Add
 * dialog offers Generate), the provider makes it and shows it (it is pasted here), or either
 * (left blank, the relay generates one).
 */
export type SecretMaker = 'operator' | 'provider' | 'either';

/** Where a provider names a delivery's event (PRODUCT.md §13). */
export interface ProviderEventType {
  /** In the operator's words, for the webhook's detail pane. */
  words: string;
  /** The header naming the event, as the provider spells it; null when it is in the body. */
  header: string | null;
  /**
   * The event type a delivery names, or null. `payload` is undefined when the body was not read
   * or not parsed (a refused request): then only a header can name it.
   */
  read: (header: HeaderReader, payload: unknown) => string | null;
}

/** The `signatureOptions` a provider takes, and the header they make a credential. */
export interface ProviderOptions {
  schema: z.ZodType<GenericHmacOptions, unknown>;
  credentialHeader: (options: GenericHmacOptions) => string;
}

export interface ProviderDescription<
  Name extends string = string,
  Options extends ProviderOptions | null = ProviderOptions | null,
> {
  /** The `signatureScheme` value (PRODUCT.md §4). */
  name: Name;
  /** What the UI calls it. */
  label: string;
  /**
   * Headers whose values are its credential (signatures, tokens), lower case: redacted on every
   * webhook (PRODUCT.md §13), never stored, forwarded or filtered on.
   */
  credentialHeaders: readonly string[];
  /** The header with its own delivery ID (identity step 2), as documented; null if none. */
  deliveryIdHeader: string | null;
  /**
   * The header that carries the secret itself, as the provider spells it (GitLab's token): never
   * signed for a remote host, and a copied curl command asks for the secret there. Null when a
   * signature is sent instead.
   */
  secretSentAs: string | null;
  /** Whether the signature covers a timestamp (in a header, or Linear's in the body). */
  signsTimestamp: boolean;
  /** Where it names its event; null when the webhook's `eventTypePath` says (generic HMAC). */
  eventType: ProviderEventType | null;
  secret: {
    maker: SecretMaker;
    /** The hint under the signing-secret field of the Add dialog. */
    hint: string;
  };
  setup: ProviderSetup;
  /** The `signatureOptions` it takes, kept on the webhook (never secret); null when none. */
  options: Options;
}

/** Keeps a description's name and options precise types, so the list of names is a type too. */
export function describeProvider<const Name extends string, Options extends ProviderOptions | null>(
  description: ProviderDescription<Name, Options>,
): ProviderDescription<Name, Options> {
  return description;
}
