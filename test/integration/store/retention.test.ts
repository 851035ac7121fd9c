import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { getDelivery, listDeliveries } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  tempDir,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { startClockedRelay } from '../../support/clocked-relay.js';
import { waitFor } from '../../support/wait.js';
import { storeKinds } from '../../support/stores.js';

const DAY_MS = 24 * 60 * 60_000;
const START = Date.parse('2026-01-01T00:00:00Z');

/**
 * PRODUCT §9: every delivery of the last 7 days and at least the newest 50 per webhook are kept;
 * older ones are pruned (at start and hourly). The relay's clock is injected through config.now,
 * and the relay is restarted days later on the same data dir.
 */
describe.each(storeKinds)('delivery log retention (%s)', (storeKind) => {
  let relay: TestRelay | null = null;
  const dataDir = tempDir();
  let clock = START;
  let sequence = 0;
  afterEach(async () => {
    await relay?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (at: number): Promise<TestRelay> => {
    clock = at;
    relay = await startClockedRelay(storeKind, dataDir, () => clock);
    return relay;
  };

  /** Posts `count` deliveries two seconds apart (well inside the rate limit); returns their IDs. */
  async function deliver(
    hook: CreatedWebhook,
    count: number,
    identity = () => `evt-${++sequence}`,
  ) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      // The relay's port changes on every restart; the webhook's path does not.
      const url = `${relay!.ingressUrl}/webhooks/w/${hook.webhook.uid}`;
      const sent = await postDelivery(url, `{"n":${i}}`, {
        ...bearer(hook.secret),
        'x-service-delivery-id': identity(),
      });
      expect(sent.status).toBe(202);
      ids.push(sent.body.delivery_id!);
      clock += 2_000;
    }
    return ids;
  }

  const allIds = async (uid: string): Promise<string[]> =>
    (await listDeliveries(relay!, uid, { limit: 500 })).items.map((d) => d.id).reverse();

  it('keeps the last 7 days and the newest 50 per webhook, and prunes the rest', async () => {
    await start(START);
    const busy = await relay!.createWebhook({ name: 'busy' });
    const quiet = await relay!.createWebhook({ name: 'quiet' });
    const recent = await relay!.createWebhook({ name: 'recent' });
    const busyIds = await deliver(busy, 70);
    const quietIds = await deliver(quiet, 10);
    const recentOld = await deliver(recent, 5);
    clock = START + 3 * DAY_MS;
    const recentNew = await deliver(recent, 55);
    await relay!.stop();

    await start(START + 9 * DAY_MS);
    await waitFor(
      () => relay!.logs.find((l) => l === '[retention] pruned 25 deliveries'),
      'the prune at start',
    );
    // busy: all old; the newest 50 stay. quiet: fewer than 50, all stay. recent: the last 7 days stay.
    expect(await allIds(busy.webhook.uid)).toEqual(busyIds.slice(20));
    expect(await allIds(quiet.webhook.uid)).toEqual(quietIds);
    expect(await allIds(recent.webhook.uid)).toEqual(recentNew);

    const pruned = await relay!.callError('deliveries.get', { id: busyIds[0]! });
    expect(pruned.code).toBe('not_found');
    expect(await relay!.callError('deliveries.get', { id: recentOld[4]! })).toMatchObject({
      code: 'not_found',
    });
    expect((await getDelivery(relay!, busyIds[20]!)).payload).toBe('{"n":20}');
  });

  it('forgets identities after the 7-day dedupe window, not before', async () => {
    await start(START);
    const hook = await relay!.createWebhook({ name: 'dedupe' });
    await deliver(hook, 1, () => 'evt-old');
    clock = START + 3 * DAY_MS;
    await deliver(hook, 1, () => 'evt-recent');
    await relay!.stop();

    await start(START + 8 * DAY_MS);
    const [again] = await deliver(hook, 1, () => 'evt-old');
    const [repeat] = await deliver(hook, 1, () => 'evt-recent');
    expect((await getDelivery(relay!, again!)).label).toBe('Accepted');
    expect((await getDelivery(relay!, repeat!)).label).toBe('Duplicate');
  });
});
