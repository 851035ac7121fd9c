import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/main/store/store.js';
import { openStore } from '../../../src/main/store/open-store.js';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { usePostgres } from '../../support/postgres.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

const postgres = usePostgres();
const MASTER_KEY = 'c3'.repeat(32);

/** The real store, with a count of how often the automation index read every automation. */
function countingIndexReads(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const automations = new Proxy(store.automations, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'all' || typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const counted = new Proxy(store, {
    get: (target, key, receiver): unknown =>
      key === 'automations' ? automations : Reflect.get(target, key, receiver),
  });
  return { store: counted, reads: () => reads };
}

/**
 * One table (src/main/core/on-changed.ts) says what a change reloads. An automation written
 * through one relay reloads that relay's automation index once, and reaches the other relay on
 * the same PostgreSQL database through the same table before the write answers: a delivery sent
 * to the other relay next is planned with it.
 */
describe('an automation write', () => {
  const relays: Array<{ relay: TestRelay; reads: () => number }> = [];

  beforeAll(async () => {
    const { url } = await postgres.database();
    for (let i = 0; i < 2; i++) {
      let reads: () => number = () => 0;
      const relay = await startTestRelay({
        openStore: async (context) => {
          const counted = countingIndexReads(
            await openStore({ ...context, databaseUrl: url, masterKeyFromEnv: MASTER_KEY }),
          );
          reads = counted.reads;
          return counted.store;
        },
      });
      relays.push({ relay, reads: () => reads() });
    }
  });
  afterAll(async () => {
    await Promise.all(relays.map(({ relay }) => relay.stop()));
  });

  it('reloads the index once here and once on the other relay', async () => {
    const [a, b] = relays as [(typeof relays)[0], (typeof relays)[0]];
    const hook = await a.relay.createWebhook({ name: 'builds', authMode: 'token' });
    const before = { a: a.reads(), b: b.reads() };

    await createAutomation(a.relay, {
      name: 'triage',
      triggers: [webhookTrigger([hook.webhook.uid])],
    });

    expect({ a: a.reads() - before.a, b: b.reads() - before.b }).toEqual({ a: 1, b: 1 });
    const sent = await postDelivery(
      b.relay.ingressUrl + new URL(hook.ingressUrl).pathname,
      JSON.stringify({ build: 1 }),
      bearer(hook.secret),
    );
    expect(sent.status).toBe(202);
    expect((await getDelivery(b.relay, sent.body.delivery_id!)).runIds).toHaveLength(1);
  });
});
