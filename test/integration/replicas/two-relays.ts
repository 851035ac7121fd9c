import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { clientOf, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { usePostgres } from '../../support/postgres.js';
import { tempDir, type CreatedWebhook } from '../../support/relay.js';

export interface TwoRelays {
  a: ChildRelay;
  b: ChildRelay;
  databaseUrl: string;
}

export { clientOf };

/** The same webhook's ingress URL on another relay (same path, that relay's listener). */
export const ingressOn = (relay: ChildRelay, ingressUrl: string): string =>
  relay.ingressUrl + new URL(ingressUrl).pathname;

export function createWebhook(
  relay: ChildRelay,
  input: MethodInput<'webhooks.create'>,
): Promise<CreatedWebhook> {
  return clientOf(relay).call('webhooks.create', input);
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
