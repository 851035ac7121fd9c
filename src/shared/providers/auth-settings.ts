import { z } from 'zod';
import type { ProviderDescription, ProviderOptions } from './description.js';
import { PROVIDERS, providerOf, type AuthSettingsLike, type SignatureSchemeName } from './index.js';

/**
 * How a webhook authenticates (PRODUCT.md §4), as one discriminated union: a token, a URL
 * token, or a signature scheme with the options that scheme takes (null for the others). The
 * contract's webhook, definition files and the Add dialog all check settings against it.
 */

type SettingsSchemaOf<P> =
  P extends ProviderDescription<infer Name, infer Options>
    ? z.ZodObject<{
        authMode: z.ZodLiteral<'signature'>;
        signatureScheme: z.ZodLiteral<Name>;
        signatureOptions: Options extends ProviderOptions ? Options['schema'] : z.ZodNull;
      }>
    : never;

/** Generic, so that TypeScript maps the tuple of providers to a tuple of schemas. */
type SettingsSchemasOf<T extends readonly unknown[]> = {
  -readonly [K in keyof T]: SettingsSchemaOf<T[K]>;
};

const signatureSettings = PROVIDERS.map((provider) =>
  z.object({
    authMode: z.literal('signature'),
    signatureScheme: z.literal(provider.name),
    signatureOptions: provider.options?.schema ?? z.null(),
  }),
) as unknown as SettingsSchemasOf<typeof PROVIDERS>;

const noScheme = { signatureScheme: z.null(), signatureOptions: z.null() };

export const authSettingsSchema = z.discriminatedUnion('authMode', [
  z.object({ authMode: z.literal('token'), ...noScheme }),
  z.object({ authMode: z.literal('url_token'), ...noScheme }),
  z.discriminatedUnion('signatureScheme', signatureSettings),
]);

export type AuthSettings = z.infer<typeof authSettingsSchema>;

const names = (providers: ReadonlyArray<{ name: string }>): string => {
  const all = providers.map((provider) => provider.name);
  return all.length <= 1 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} and ${all.at(-1)}`;
};

/** Why an eventTypePath is refused: the schemes that name their own event. */
export const EVENT_TYPE_PATH_NOTE = `only token, url_token and ${names(
  PROVIDERS.filter((provider) => provider.eventType === null),
)} webhooks take an eventTypePath; provider schemes name their event themselves`;

/**
 * What is wrong with a signature scheme's `signatureOptions`, given or not, in the words of
 * §4; null when the scheme takes options exactly when they are given.
 */
export function signatureOptionsProblem(
  scheme: SignatureSchemeName | null | undefined,
  optionsGiven: boolean,
): string | null {
  const takes = scheme !== null && scheme !== undefined && providerOf(scheme).options !== null;
  if (takes === optionsGiven) return null;
  return takes
    ? `the ${scheme} scheme needs {header, encoding, prefix}`
    : `only the ${names(PROVIDERS.filter((provider) => provider.options !== null))} scheme takes options`;
}

/**
 * A stored webhook's settings as the union. They were checked when written (create or a
 * definition file), and the contract's output checks them again.
 */
export const authSettingsOf = (record: AuthSettingsLike): AuthSettings =>
  ({
    authMode: record.authMode,
    signatureScheme: record.signatureScheme,
    signatureOptions: record.signatureOptions,
  }) as AuthSettings;
