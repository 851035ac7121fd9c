import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelCounts } from '../../../src/shared/contract/deliveries.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

const sum = (buckets: LabelCounts[], label: keyof LabelCounts): number =>
  buckets.reduce((total, bucket) => total + bucket[label], 0);

describe("GET /api/webhooks/:uid/volume: a webhook's deliveries by label over time", () => {
  let relay: TestRelay;
  let uid: string;
  beforeAll(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'busy' })).webhook.uid;
    // 21,000 in the last 20 hours, 44 of them Rejected (auth); and 500 three days ago.
    const now = Date.now();
    seedLog(sqliteDbOf(relay.core.store), uid, 21_000, {
      atOf: (i) => now - 20 * 3_600_000 + i * 3_000,
      labelOf: (i) => (i % 477 === 0 && i < 44 * 477 ? 'Rejected (auth)' : 'Accepted'),
    });
    seedLog(sqliteDbOf(relay.core.store), uid, 500, {
      atOf: (i) => now - 72 * 3_600_000 + i * 1_000,
      labelOf: () => 'Duplicate',
    });
  });
  afterAll(() => relay.stop());

  const volume = (range: '24h' | '7d') => relay.call('deliveries.volume', { uid, range });

  it('counts the last 24 hours by the hour, every delivery and every rejection', async () => {
    const day = await volume('24h');
    expect(day.bucketMinutes).toBe(60);
    expect(day.buckets).toHaveLength(24);
    expect(sum(day.buckets, 'Accepted')).toBe(21_000 - 44);
    expect(sum(day.buckets, 'Rejected (auth)')).toBe(44);
    expect(sum(day.buckets, 'Duplicate')).toBe(0);
  });

  it('counts 7 days in 4-hour buckets', async () => {
    const week = await volume('7d');
    expect(week.bucketMinutes).toBe(240);
    expect(week.buckets).toHaveLength(42);
    expect(sum(week.buckets, 'Duplicate')).toBe(500);
    expect(sum(week.buckets, 'Rejected (auth)')).toBe(44);
    expect(Date.parse(week.since)).toBeLessThanOrEqual(Date.now() - 6 * 24 * 3_600_000);
  });

  it('refuses a range it does not draw', async () => {
    const refused = await relay.callError('deliveries.volume', { uid, range: '30d' });
    expect(refused.code).toBe('invalid_input');
    expect(refused.message).toContain('24h or 7d');
  });
});
