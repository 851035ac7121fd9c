import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StorePeers } from '../../../src/main/store/store-peers.js';
import type { Store } from '../../../src/main/store/store.js';
import { openStore } from '../../../src/main/store/open-store.js';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { usePostgres } from '../../support/postgres.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

const postgres = usePostgres();
const MASTER_KEY = 'c3'.repeat(32);

interface Counted {
  store: Store;
  /** How often the automation index read every automation. */
  reads: () => number;
  /** What other relays announced, as this relay heard it (a resync poll hears everything). */
  heard: string[];
}

/** The real store, watched: its automation reads counted, its peers' announcements noted. */
function counted(store: Store): Counted {
  let reads = 0;
  const heard: string[] = [];
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
  const peers = new Proxy(store.peers, {
    get(target, key, receiver): unknown {
      if (key !== 'onChange') return Reflect.get(target, key, receiver);
      const onChange: StorePeers['onChange'] = (handler) =>
        target.onChange(async (resource) => {
          heard.push(resource);
          await handler(resource);
        });
      return onChange;
    },
  });
  const watched = new Proxy(store, {
    get: (target, key, receiver): unknown =>
      key === 'automations'
        ? automations
        : key === 'peers'
          ? peers
          : Reflect.get(target, key, receiver),
  });
  return { store: watched, reads: () => reads, heard };
}

/**
 * One table (src/main/core/on-changed.ts) says what a change reloads. An automation written
 * through one relay reloads that relay's automation index once, and reaches the other relay on
 * the same PostgreSQL database through the same table before the write answers: a delivery sent
 * to the other relay next is planned with it.
 */
describe('an automation write', () => {
  const relays: Array<{ relay: TestRelay; watch: () => Counted }> = [];

  beforeAll(async () => {
    const { url } = await postgres.database();
    for (let i = 0; i < 2; i++) {
      let watch: Counted | null = null;
      const relay = await startTestRelay({
        openStore: async (context) => {
          watch = counted(
            await openStore({ ...context, databaseUrl: url, masterKeyFromEnv: MASTER_KEY }),
          );
          return watch.store;
        },
      });
      relays.push({ relay, watch: () => watch! });
    }
  });
  afterAll(async () => {
    await Promise.all(relays.map(({ relay }) => relay.stop()));
  });

  it('reloads the index once here and once on the other relay', async () => {
    const [a, b] = relays as [(typeof relays)[0], (typeof relays)[0]];
    const hook = await a.relay.createWebhook({ name: 'builds', authMode: 'token' });
    // A resync poll (every 5 s) reloads everything on its own: a round it lands in is run again.
    let created = 0;
    for (let round = 0; ; round++) {
      const [watchA, watchB] = [a.watch(), b.watch()];
      watchA.heard.length = watchB.heard.length = 0;
      const before = { a: watchA.reads(), b: watchB.reads() };
      await createAutomation(a.relay, {
        name: `triage-${round}`,
        triggers: [webhookTrigger([hook.webhook.uid])],
      });
      created++;
      const resynced = watchA.heard.length > 0 || watchB.heard.some((r) => r !== 'automations');
      if (resynced && round < 3) continue;
      expect(watchB.heard).toEqual(['automations']);
      expect({ a: watchA.reads() - before.a, b: watchB.reads() - before.b }).toEqual({
        a: 1,
        b: 1,
      });
      break;
    }
    const sent = await postDelivery(
      b.relay.ingressUrl + new URL(hook.ingressUrl).pathname,
      JSON.stringify({ build: 1 }),
      bearer(hook.secret),
    );
    expect(sent.status).toBe(202);
    expect((await getDelivery(b.relay, sent.body.delivery_id!)).runIds).toHaveLength(created);
  });
});
