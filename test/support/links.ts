import type { Link } from '../../src/shared/contract/links.js';
import type { Delivery } from '../../src/shared/contract/deliveries.js';
import type { CoreConfig } from '../../src/main/config.js';
import { startTestRelay, type TestRelay } from './relay.js';

/** Provider waits in milliseconds, so tests of rate limits and retries do not wait seconds. */
export const FAST_TIMING = {
  retryUnitMs: 5,
  requestTimeoutMs: 500,
  retries: 2,
  maxWaitSeconds: 120,
};

export function linkedRelay(overrides: Partial<CoreConfig> = {}): Promise<TestRelay> {
  return startTestRelay({ links: { timing: FAST_TIMING }, ...overrides });
}

/** A "public" URL on the relay's own port (the stand-ins resolve every host to 127.0.0.1). */
export async function goPublic(relay: TestRelay, host = 'relay.example.test'): Promise<string> {
  const port = new URL(relay.ingressUrl).port;
  const publicUrl = `http://${host}:${port}`;
  await relay.call('settings.update', { publicUrl });
  await relay.core.links.idle();
  return publicUrl;
}

export async function storeToken(relay: TestRelay, name: string, value: string): Promise<void> {
  await relay.call('secrets.create', { name, value });
}

export async function putLink(
  relay: TestRelay,
  uid: string,
  link: Record<string, unknown>,
): Promise<{ status: number; body: Link & { error?: { message: string } } }> {
  return relay.api('PUT', `/api/webhooks/${uid}/link`, link);
}

/** Links `uid` to a stand-in GitHub hook with the `github-token` team secret, as most tests do. */
export function linkGitHub(
  relay: TestRelay,
  uid: string,
  github: { url: string },
  hook: { owner: string; id: number },
): ReturnType<typeof putLink> {
  return putLink(relay, uid, {
    kind: 'github',
    target: `${hook.owner}#${hook.id}`,
    tokenSecretName: 'github-token',
    apiBaseUrl: github.url,
  });
}

export async function deliveriesOf(relay: TestRelay, uid: string): Promise<Delivery[]> {
  return (await relay.call('deliveries.list', { uid, limit: 500 })).items;
}
