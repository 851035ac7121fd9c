import { describe, expect, it } from 'vitest';
import { createDeliveriesRepository } from '../../../src/main/store/sqlite/deliveries-repo.js';
import { createPostgresDeliveriesRepository } from '../../../src/main/store/postgres/deliveries-repo.js';
import { createPostgresRetention } from '../../../src/main/store/postgres/retention.js';
import { createPostgresRunsRepository } from '../../../src/main/store/postgres/runs-repo.js';
import { createRetention } from '../../../src/main/store/sqlite/retention.js';
import { createRunsRepository } from '../../../src/main/store/sqlite/runs-repo.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import type { BatchItem } from '../../../src/main/store/delivery-batch.js';
import { DEDUPE_WINDOW_MS, useContractStores } from '../../support/store-contract.js';
import { accepted, freshEpoch, rejected, seedFactory } from '../../support/store-seeds.js';

const stores = useContractStores();
const DAY = 24 * 60 * 60_000;

describe.each(stores)('retention on $kind', (store) => {
  it('keeps the last days, the newest N per webhook and every delivery with a run in flight', async () => {
    const t0 = freshEpoch();
    const now = t0 + 30 * DAY;
    const db = await store.open();
    await seedFactory(db, {
      webhooks: [
        { uid: 'wh_busy', name: 'busy' },
        { uid: 'wh_quiet', name: 'quiet' },
      ],
      automations: [{ id: 'aut_x', name: 'X' }],
    });
    // busy: 12 old entries (the 2nd with a run still queued, the 3rd with a run that ended),
    // then 3 recent; quiet: 4 old entries only.
    const old: BatchItem[] = [];
    for (let i = 0; i < 12; i++) {
      old.push(
        i === 5
          ? rejected('wh_busy', t0 + i)
          : accepted('wh_busy', t0 + i, `{"i":${i}}`, { automations: i < 3 ? ['aut_x'] : [] }),
      );
    }
    for (let i = 0; i < 4; i++) old.push(accepted('wh_quiet', t0 + 20 + i, '{}'));
    const recent = [0, 1, 2].map((i) => accepted('wh_busy', now - DAY + i, '{"recent":true}'));
    const committed = (await db.commit([...old, ...recent])).committed;
    const busy = committed.filter((d) => d.webhookUid === 'wh_busy');

    const runs = db.repository({
      sqlite: (sqlite) => asyncRepository(createRunsRepository(sqlite)),
      postgres: (pool) =>
        createPostgresRunsRepository(pool, { replicaId: 'r', leaseMs: 60_000 }).runs,
    });
    // The first run finishes, the second is running, the third stays queued.
    const [done, inFlight] = await runs.claim('default', 2, t0 + 100);
    await runs.finish(
      done!.id,
      { status: 'succeeded', exitCode: 0, output: null, error: null },
      t0,
    );
    expect(inFlight!.status).toBe('running');

    const retention = db.repository({
      sqlite: (sqlite) => asyncRepository(createRetention(sqlite)),
      postgres: (pool) => createPostgresRetention(pool),
    });
    const removed = await retention.prune(
      { days: 7, minPerWebhook: 5, dedupeWindowMs: DEDUPE_WINDOW_MS },
      now,
    );

    const log = db.repository({
      sqlite: (sqlite) => asyncRepository(createDeliveriesRepository(sqlite)),
      postgres: (pool) => createPostgresDeliveriesRepository(pool),
    });
    const kept = async (uid: string) =>
      (await log.page(uid, 100, null)).items.map((d) => d.id).sort();
    // busy keeps its 3 recent + 2 more of the newest 5, and the two deliveries with runs in flight.
    const expectedBusy = [...busy.slice(-5), busy[1]!, busy[2]!].map((d) => d.id).sort();
    expect(await kept('wh_busy')).toEqual(expectedBusy);
    expect(await kept('wh_quiet')).toHaveLength(4);
    expect(removed).toBe(busy.length - expectedBusy.length);

    // A pruned entry is gone whole: its payload, its request and its finished run.
    expect(await log.get(busy[0]!.id)).toBeNull();
    expect(await log.payload(busy[0]!.id)).toBeNull();
    expect(await log.requestContext(busy[0]!.id)).toBeNull();
    expect(await runs.get(done!.id)).toBeNull();
    expect((await runs.get(inFlight!.id))!.status).toBe('running');
    expect(await retention.prune({ days: 7, minPerWebhook: 5, dedupeWindowMs: DAY }, now)).toBe(0);
  });
});
