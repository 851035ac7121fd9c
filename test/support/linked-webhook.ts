import { rmSync } from 'node:fs';
import type { ProviderTiming } from '../../src/main/links/provider.js';
import type { SignatureSchemeName } from '../../src/shared/providers/index.js';
import { createAutomation, setExecutor, webhookTrigger } from './automations.js';
import { goPublic, linkedRelay, putLink, storeToken } from './links.js';
import { tempDir, type TestRelay } from './relay.js';

export interface LinkedWebhookOptions {
  /** The webhook's name, scheme and signing secret. */
  name: string;
  scheme: SignatureSchemeName;
  secret: string;
  /** The team secret holding the provider API's credential. */
  tokenSecretName: string;
  token: string;
  timing: ProviderTiming;
}

/**
 * A relay with a public URL, the provider's credential stored, a signature webhook and an
 * automation that records every run: what each provider's whole-loop test starts from. `restart`
 * stops the relay and starts another on the same data and port, as a laptop's next start does.
 */
export async function startLinkedWebhook(
  cleanups: Array<() => Promise<void>>,
  options: LinkedWebhookOptions,
) {
  const dataDir = tempDir();
  cleanups.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
  let relay = await linkedRelay({ dataDir, links: { timing: options.timing } });
  cleanups.push(() => relay.stop());
  const port = Number(new URL(relay.ingressUrl).port);
  const publicUrl = await goPublic(relay);
  await storeToken(relay, options.tokenSecretName, options.token);
  await setExecutor(relay, { kind: 'record' });
  const { webhook } = await relay.createWebhook({
    name: options.name,
    authMode: 'signature',
    signatureScheme: options.scheme,
    secret: options.secret,
  });
  await createAutomation(relay, { name: 'every-event', triggers: [webhookTrigger([webhook.uid])] });
  const restart = async (): Promise<TestRelay> => {
    await relay.stop();
    relay = await linkedRelay({
      dataDir,
      ingress: { host: '127.0.0.1', port },
      links: { timing: options.timing },
    });
    return relay;
  };
  const link = (fields: { kind: string; target: string; apiBaseUrl: string }) =>
    putLink(relay, webhook.uid, { ...fields, tokenSecretName: options.tokenSecretName });
  return { webhook, publicUrl, relay: () => relay, restart, link };
}
