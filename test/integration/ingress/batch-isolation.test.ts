import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoreConfig } from '../../../src/main/config.js';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import { getDelivery } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeConfig, storeKinds, type TestStoreKind } from '../../support/stores.js';

/**
 * Issue 24: one item the store refuses never fails the others of its batch. The hook below is
 * the test's own, between the relay and its real store: a delivery whose identity starts with
 * `poison-` reaches the store with a receive time of 1e19 ms, which SQLite's STRICT INTEGER and
 * PostgreSQL's bigint both refuse, as they refused a declared 1e19-byte size. The relay's
 * validation never lets such a value through, so the hook goes in below it.
 */
function poisoningStore(kind: TestStoreKind, batches: string[][]): Pick<CoreConfig, 'openStore'> {
  const poison = (pending: BatchItem): BatchItem =>
    pending.kind === 'accept' && pending.item.identity.startsWith('poison-')
      ? { kind: 'accept', item: { ...pending.item, receivedAt: 1e19 } }
      : pending;
  return {
    openStore: async (context) => {
      const store = await storeConfig(kind).openStore!(context);
      const real = store.batchStore;
      const commit = (batch: BatchItem[]) => {
        batches.push(batch.map((p) => p.item.identity ?? p.item.id));
        return real.commit(batch.map(poison));
      };
      return { ...store, batchStore: { ...real, commit } };
    },
  };
}

describe.each(storeKinds)('a batch with one item its store refuses (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  const batches: string[][] = [];
  beforeEach(async () => {
    batches.length = 0;
    relay = await startTestRelay({
      ...poisoningStore(storeKind, batches),
      limits: { deliveriesPerMinute: 10_000 },
    });
    hook = await relay.createWebhook({ name: 'isolated' });
  });
  afterEach(() => relay.stop());

  const send = (identity: string) =>
    postDelivery(hook.ingressUrl, JSON.stringify({ identity }), {
      ...bearer(hook.secret),
      'x-service-delivery-id': identity,
    });

  it('answers 503 to that item alone; every other delivery of the batch is 202 and stored', async () => {
    let mixed = 0;
    // Requests sent together usually share a commit; rounds go on until one poisoned item has
    // shared a batch with good ones three times, and every round must isolate it.
    for (let round = 0; round < 20 && mixed < 3; round++) {
      const good = Array.from({ length: 8 }, (_, i) => send(`good-${round}-${i}`));
      const poisoned = send(`poison-${round}`);
      const [bad, ...answers] = await Promise.all([poisoned, ...good]);
      expect(bad.status).toBe(503);
      expect(bad.headers.get('retry-after')).toBe('5');
      for (const answer of answers) {
        expect(answer.status).toBe(202);
        expect(await getDelivery(relay, answer.body.delivery_id!)).toMatchObject({
          label: 'Accepted',
        });
      }
      const holding = batches.find((b) => b.includes(`poison-${round}`))!;
      if (holding.length > 1) mixed++;
    }
    expect(mixed).toBe(3);
    expect(
      relay.logs.some((line) => /could not be written \(the rest of its batch was\)/.test(line)),
    ).toBe(true);
  });
});
