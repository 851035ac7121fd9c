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
  const response = await relay.api('PATCH', '/api/settings', { publicUrl });
  if (response.status !== 200) throw new Error(`public URL: ${JSON.stringify(response.body)}`);
  await relay.core.links.idle();
  return publicUrl;
}

export async function storeToken(relay: TestRelay, name: string, value: string): Promise<void> {
  const response = await relay.api('POST', '/api/secrets', { name, value });
  if (response.status !== 201) throw new Error(`secret: ${JSON.stringify(response.body)}`);
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
  const response = await relay.api<{ items: Delivery[] }>(
    'GET',
    `/api/webhooks/${uid}/deliveries?limit=500`,
  );
  if (response.status !== 200) throw new Error(`deliveries: ${JSON.stringify(response.body)}`);
  return response.body.items;
}
