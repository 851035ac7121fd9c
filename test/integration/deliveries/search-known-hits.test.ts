import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import type { MethodOutput } from '../../../src/shared/contract/index.js';
import { indexAll } from '../../support/index-all.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

const RARE = 'quay-7781';
const COUNT = 300;
const HOLDERS = [40, 150, 299];

/**
 * A rare search's page and total are driven by the hits its plan found in the index (search-plan.ts),
 * reused while the index file is unchanged: a list read asks for its plan, its page and its total
 * in a row, and each match of the phrase again cost as much as the plan's own on a week's log.
 * Whatever the index does meanwhile, the answer is what the log holds.
 */
describe('a rare search, driven by the hits its plan found', () => {
  let relay: TestRelay;
  let webhook: { uid: string; ingressUrl: string; secret: string | null };
  let ids: string[];

  const list = (): Promise<MethodOutput<'deliveries.list'>> =>
    relay.call('deliveries.list', { uid: webhook.uid, q: RARE });

  beforeAll(async () => {
    relay = await startTestRelay();
    const created = await relay.createWebhook({ name: 'quays' });
    webhook = { uid: created.webhook.uid, ingressUrl: created.ingressUrl, secret: created.secret };
    ids = seedLog(sqliteDbOf(relay.core.store), webhook.uid, COUNT, {
      bodyOf: (i) => JSON.stringify({ n: i, berth: HOLDERS.includes(i) ? RARE : `quay-${i}` }),
      labelOf: () => 'Accepted',
    });
    await indexAll(sqliteDbOf(relay.core.store));
  });
  afterAll(() => relay.stop());

  it('finds an entry indexed after the plan found its hits, at the very next read', async () => {
    const seeded = HOLDERS.map((i) => ids[i]!).reverse();
    const first = await list();
    expect(first.items.map((d) => d.id)).toEqual(seeded);
    expect(first.total).toBe(3);

    const sent = await postDelivery(
      webhook.ingressUrl,
      JSON.stringify({ berth: RARE }),
      bearer(webhook.secret),
    );
    expect(sent.status).toBe(202);
    const id = sent.body.delivery_id!;
    // Queued or indexed by now (the relay's own index thread may have been first): found either way.
    expect((await list()).items.map((d) => d.id)).toEqual([id, ...seeded]);

    // Indexed now, within the plan's few seconds: its old hits do not hold it.
    await indexAll(sqliteDbOf(relay.core.store));
    const after = await list();
    expect(after.items.map((d) => d.id)).toEqual([id, ...seeded]);
    expect(after.total).toBe(4);
  });
});
