import { describe, expect, it } from 'vitest';
import { createMetricsReader } from '../../../src/main/store/sqlite/metrics-reader.js';
import { createPostgresMetricsReader } from '../../../src/main/store/postgres/metrics-reader.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import { useContractStores } from '../../support/store-contract.js';
import { accepted, freshEpoch, seedFactory } from '../../support/store-seeds.js';

const stores = useContractStores();

describe.each(stores)('the metrics reader on $kind', (store) => {
  it('counts runs by status and executor, the queue, and the live webhooks', async () => {
    const t0 = freshEpoch();
    const db = await store.open();
    await seedFactory(db, {
      executor: '{"kind":"command","command":["true"]}',
      webhooks: [
        { uid: 'wh_m1', name: 'm1' },
        { uid: 'wh_m2', name: 'm2' },
      ],
      automations: [{ id: 'aut_m', name: 'M' }],
    });
    await db.sql('UPDATE webhooks SET deleted_at = $1 WHERE uid = $2', [t0, 'wh_m2']);
    await db.commit([
      accepted('wh_m1', t0, '{}', { automations: ['aut_m'] }),
      accepted('wh_m1', t0 + 5, '{}', { automations: ['aut_m'] }),
    ]);
    await db.sql("UPDATE runs SET status = 'failed' WHERE created_at = $1", [t0 + 5]);
    const metrics = db.repository({
      sqlite: (sqlite) => asyncRepository(createMetricsReader(sqlite)),
      postgres: (pool) => createPostgresMetricsReader(pool),
    });

    const byStatus = await metrics.runsByStatusAndExecutor();
    expect([...byStatus].sort((a, b) => a.status.localeCompare(b.status))).toEqual([
      { status: 'failed', executor: 'command', n: 1 },
      { status: 'queued', executor: 'command', n: 1 },
    ]);
    expect(await metrics.queue()).toEqual({ depth: 1, oldest: t0 });
    expect(await metrics.liveWebhooks()).toEqual([{ uid: 'wh_m1', name: 'm1' }]);
    expect(await metrics.searchPending()).toBe(0);
  });
});
