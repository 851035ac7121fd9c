import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_HEADERS, isCredentialHeader } from '../../../src/shared/credential-headers.js';
import { authSettingsSchema } from '../../../src/shared/providers/auth-settings.js';
import {
  PROVIDERS,
  takesEventTypePath,
  type ProviderDescription,
} from '../../../src/shared/providers/index.js';
import { signatureSchemeSchema } from '../../../src/shared/signature-schemes.js';
import {
  getSignatureScheme,
  type SignatureScheme,
} from '../../../src/main/ingress/schemes/index.js';
import { eventHeaders } from '../../../src/main/ingress/schemes/provider-events.js';
import { schemeEventSource } from '../../../src/renderer/pages/webhooks/event-type-words.js';
import {
  signingSecretHint,
  weInventSecret,
} from '../../../src/renderer/pages/webhooks/signing-secret-words.js';

/**
 * Issue 25: a signature provider is two files, its description (src/shared/providers/<name>.ts)
 * and its scheme (src/main/ingress/schemes/<name>.ts), each listed once in its index. Everything
 * else reads them: this checks both files agree and every consumer covers every provider.
 */

const ROOT = join(import.meta.dirname, '../../..');
const NOW_MS = 1_767_000_000_000;
const OPTIONS = { header: 'x-signature', encoding: 'hex', prefix: 'sha256=' } as const;

function signedRequest(provider: ProviderDescription, scheme: SignatureScheme) {
  const secret = scheme.newSecret?.() ?? 'a-test-secret-of-the-operators';
  const options = provider.options === null ? null : OPTIONS;
  let body: Buffer = Buffer.from('{"type":"thing.happened","action":"opened"}');
  if (scheme.prepareBody) {
    body = scheme.prepareBody({
      body,
      nowMs: NOW_MS,
      timestampSeconds: null,
      purpose: 'send',
    }).body;
  }
  const headers = scheme.sign({
    body,
    secret,
    timestamp: Math.floor(NOW_MS / 1000),
    id: 'delivery-1',
    options,
  });
  return { secret, options, body, headers };
}

describe.each(PROVIDERS.map((provider) => [provider.name, provider] as const))(
  'provider %s',
  (name, provider) => {
    const scheme = getSignatureScheme(name);

    it('is two files, each naming it', async () => {
      const shared = `src/shared/providers/${name}.ts`;
      const main = `src/main/ingress/schemes/${name}.ts`;
      expect(existsSync(join(ROOT, shared)), shared).toBe(true);
      expect(existsSync(join(ROOT, main)), main).toBe(true);
      const described = Object.values<unknown>(
        (await import(join(ROOT, shared))) as Record<string, unknown>,
      );
      expect(described).toContain(provider);
      const run = Object.values<unknown>(
        (await import(join(ROOT, main))) as Record<string, unknown>,
      );
      expect(run).toContain(scheme);
      expect(scheme.name).toBe(name);
    });

    it('signs as it verifies, with the headers its description names', () => {
      const { secret, options, body, headers } = signedRequest(provider, scheme);
      const sent = Object.fromEntries(
        Object.entries(headers).map(([key, value]) => [key.toLowerCase(), [value]]),
      );
      const verdict = scheme.verify({ headers: sent, body, secret, now: NOW_MS, options });
      expect(verdict).toMatchObject({ ok: true });
      if (!verdict.ok) return;

      // Identity: the description's delivery header is the one the scheme reads and writes.
      expect(scheme.deliveryIdHeader).toBe(provider.deliveryIdHeader?.toLowerCase() ?? null);
      expect(verdict.deliveryId).toBe(provider.deliveryIdHeader === null ? null : 'delivery-1');
      // Replay: only a signature bound to a time can be recognised when it comes again.
      expect(verdict.replayKey !== undefined).toBe(provider.signsTimestamp);

      // Redaction: what carries the credential is a credential header everywhere.
      const credentials = Object.keys(sent).filter((header) =>
        isCredentialHeader(header, provider.options?.credentialHeader(OPTIONS) ?? null),
      );
      expect(credentials.length).toBeGreaterThan(0);
      for (const header of provider.credentialHeaders) expect(CREDENTIAL_HEADERS).toContain(header);
      if (provider.secretSentAs !== null) {
        expect(sent[provider.secretSentAs.toLowerCase()]).toEqual([secret]);
      }
    });

    it('names its event where its description says', () => {
      expect(takesEventTypePath('signature', name)).toBe(provider.eventType === null);
      expect(scheme.eventHeaders !== undefined).toBe((provider.eventType?.header ?? null) !== null);
      if (scheme.eventHeaders === undefined) {
        expect(() => eventHeaders(name, 'push')).toThrow(/names its event in the body/);
        return;
      }
      const sent = eventHeaders(name, 'push');
      const lower = new Map(Object.entries(sent).map(([key, value]) => [key.toLowerCase(), value]));
      expect(provider.eventType?.read((header) => lower.get(header), undefined)).toBe('push');
    });

    it('is offered, explained and set up in the UI', () => {
      expect(provider.label).not.toBe('');
      expect(schemeEventSource(name)).toBe(provider.eventType?.words ?? null);
      expect(signingSecretHint(name)).toBe(provider.secret.hint);
      expect(weInventSecret(name)).toBe(provider.secret.maker === 'operator');
      // The relay generates a blank secret only where the provider lets it choose.
      expect(scheme.newSecret !== undefined).toBe(provider.secret.maker === 'either');
      const pasted = provider.setup.steps.map((step) => step.value);
      expect(pasted).toContain('url');
      // The checklist hands over the secret exactly when the provider does not make it.
      expect(pasted.includes('secret')).toBe(provider.secret.maker !== 'provider');
    });

    it('is a signatureScheme the contract and definition files accept, with its options', () => {
      expect(signatureSchemeSchema.parse(name)).toBe(name);
      const settings = { authMode: 'signature', signatureScheme: name };
      const withOptions = { ...settings, signatureOptions: OPTIONS };
      const without = { ...settings, signatureOptions: null };
      expect(authSettingsSchema.safeParse(withOptions).success).toBe(provider.options !== null);
      expect(authSettingsSchema.safeParse(without).success).toBe(provider.options === null);
    });

    it('summarises a delivery without throwing', () => {
      for (const payload of [{ type: 'x' }, [], null, 'text', { data: { object: 1 } }]) {
        const summary = scheme.summarize('thing.happened', payload);
        expect(summary === null || typeof summary === 'string').toBe(true);
      }
    });
  },
);

/** Source files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry) ? [path] : [];
  });
}

/** Files that may name a provider outside its two files, and why. */
const MAY_NAME_PROVIDERS: Record<string, string> = {
  'src/main/ingress/schemes/index.ts': 'the list of schemes, by name',
  'src/renderer/pages/webhooks/AddWebhookDialog.tsx': 'the scheme the Add dialog starts on',
  'src/main/ingress/steps/form-body.ts': 'GitHub’s form-encoded default, named in its refusal',
  'src/shared/contract/links.ts': 'provider links (API clients), not signatures',
  'src/renderer/pages/webhooks/ProviderLink.tsx': 'provider links (API clients), not signatures',
  'src/renderer/pages/webhooks/link-form-words.ts': 'provider links (API clients), not signatures',
  'src/renderer/pages/webhooks/link-target.ts':
    'provider links: the hook pages a pasted address names',
};

describe('the rest of the code', () => {
  it('names no provider: it reads the descriptions', () => {
    const named: string[] = [];
    for (const path of sources(join(ROOT, 'src'))) {
      const file = relative(ROOT, path);
      if (file.startsWith('src/main/links/') || Object.hasOwn(MAY_NAME_PROVIDERS, file)) continue;
      const text = readFileSync(path, 'utf8');
      for (const { name } of PROVIDERS) {
        if (file === `src/shared/providers/${name}.ts`) continue;
        if (file === `src/main/ingress/schemes/${name}.ts`) continue;
        if (new RegExp(`['"\`]${name}['"\`]`).test(text)) named.push(`${file}: ${name}`);
      }
    }
    expect(named).toEqual([]);
  });
});
