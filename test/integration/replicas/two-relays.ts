import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { usePostgres } from '../../support/postgres.js';
import { tempDir, type CreatedWebhook, type TestRelay } from '../../support/relay.js';

export interface TwoRelays {
  a: ChildRelay;
  b: ChildRelay;
  databaseUrl: string;
}

/** The TestRelay-shaped `api` over a child relay, so the shared helpers work on it. */
export const apiOf = (relay: ChildRelay): Pick<TestRelay, 'api'> => ({
  api: (method, path, body) => childApi(relay, method, path, body) as never,
});

/** The same webhook's ingress URL on another relay (same path, that relay's listener). */
export const ingressOn = (relay: ChildRelay, ingressUrl: string): string =>
  relay.ingressUrl + new URL(ingressUrl).pathname;

export async function createWebhook(
  relay: ChildRelay,
  input: Record<string, unknown>,
): Promise<CreatedWebhook> {
  const created = await childApi<CreatedWebhook>(relay, 'POST', '/api/webhooks', input);
  if (created.status !== 201)
    throw new Error(`create webhook failed: ${JSON.stringify(created.body)}`);
  return created.body;
}

/**
 * For a test file: a private PostgreSQL cluster, and per test a fresh database with two
 * `hookport serve --database` processes on it, as a team runs them behind a load balancer: each
 * its own data dir, the same HOOKPORT_MASTER_KEY and HOOKPORT_ADMIN_TOKEN. `start` spawns them
 * (extra env for both); they are killed and their data dirs removed after each test.
 */
export function useTwoRelays(): { start(env?: Record<string, string>): Promise<TwoRelays> } {
  const postgres = usePostgres();
  const started: ChildRelay[] = [];
  afterEach(async () => {
    for (const relay of started.splice(0)) {
      relay.child.kill('SIGKILL');
      await relay.exited;
      rmSync(relay.dataDir, { recursive: true, force: true });
    }
  });
  return {
    async start(env = {}) {
      const { url } = await postgres.database();
      const shared = {
        HOOKPORT_MASTER_KEY: randomBytes(32).toString('hex'),
        HOOKPORT_ADMIN_TOKEN: randomBytes(24).toString('base64url'),
        ...env,
      };
      const spawnOne = async (): Promise<ChildRelay> => {
        const relay = await spawnServe(tempDir('hookport-replica-'), shared, {
          args: ['--database', url],
        });
        started.push(relay);
        return relay;
      };
      // One after the other: the first migrates the fresh database, the second finds it done.
      const a = await spawnOne();
      const b = await spawnOne();
      return { a, b, databaseUrl: url };
    },
  };
}
