import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabelCounts } from '../../../src/shared/contract/deliveries.js';
import { DELIVERY_LABELS, type DeliveryLabel } from '../../../src/shared/labels.js';
import { waitForDeliveries, type Delivery } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  tempDir,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { storeKinds } from '../../support/stores.js';
import { startClockedRelay } from '../../support/clocked-relay.js';
import { waitFor } from '../../support/wait.js';

const DAY_MS = 24 * 60 * 60_000;
const START = Date.parse('2026-01-01T00:00:00Z');

const empty = (): LabelCounts =>
  Object.fromEntries(DELIVERY_LABELS.map((label) => [label, 0])) as LabelCounts;

/**
 * Totals, activity and volume add up per-minute counts kept beside the log (schema version 15),
 * not counts of the log: they must stay exactly what counting the entries gives, through
 * accepts, duplicates, rejections, a retention prune and time bounds inside a minute. The
 * expectations are counted here from the entries themselves, as the API lists them.
 */
describe.each(storeKinds)('exact totals, activity and volume (%s)', (storeKind) => {
  const dataDir = tempDir();
  let relay: TestRelay;
  let clock = START + 13_000;
  let hook: CreatedWebhook;
  let other: CreatedWebhook;
  let sequence = 0;

  const start = async (at: number): Promise<void> => {
    clock = at;
    relay = await startClockedRelay(storeKind, dataDir, () => clock);
  };
  beforeAll(async () => {
    await start(START + 13_000);
    hook = await relay.createWebhook({ name: 'counted' });
    other = await relay.createWebhook({ name: 'other' });
  });
  afterAll(async () => {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Accepted, duplicate and rejected entries, 7–17 s apart so that minutes hold 3–8 of them. */
  async function deliver(to: CreatedWebhook, count: number): Promise<void> {
    const before = (await entries(to.webhook.uid)).length;
    const url = `${relay.ingressUrl}/webhooks/w/${to.webhook.uid}`;
    for (let i = 0; i < count; i++) {
      const n = ++sequence;
      const identity = n % 5 === 0 ? `evt-${n - 1}` : `evt-${n}`;
      const secret = n % 7 === 0 ? 'not-the-secret' : to.secret;
      const sent = await postDelivery(url, `{"n":${n}}`, {
        ...bearer(secret),
        'x-service-delivery-id': identity,
      });
      expect([202, 401]).toContain(sent.status);
      clock += 7_000 + (n % 3) * 5_000;
    }
    // Every post makes one entry; a rejection's is written a moment after its answer.
    await waitForDeliveries(relay, to.webhook.uid, before + count);
  }

  const entries = async (uid: string): Promise<Delivery[]> =>
    (await relay.call('deliveries.list', { uid, limit: 500 })).items;

  const total = async (uid: string, only: Record<string, unknown>): Promise<number> =>
    (await relay.call('deliveries.count', { uid, ...only })).total;

  /** Every bound at and around entries' times, within a minute and across minutes. */
  async function expectTotalsCounted(uid: string): Promise<void> {
    const items = await entries(uid);
    const times = items.map((d) => Date.parse(d.receivedAt)).sort((a, b) => a - b);
    const counted = (from: number, to: number, labels: readonly DeliveryLabel[] | null): number =>
      items.filter((d) => {
        const at = Date.parse(d.receivedAt);
        return at >= from && at <= to && (labels === null || labels.includes(d.label));
      }).length;
    expect(await total(uid, {})).toBe(items.length);
    expect(await total(uid, { label: 'Duplicate' })).toBe(counted(0, Infinity, ['Duplicate']));
    expect(await total(uid, { labels: 'Accepted,Rejected (auth)' })).toBe(
      counted(0, Infinity, ['Accepted', 'Rejected (auth)']),
    );
    const first = times[0]!;
    const last = times[times.length - 1]!;
    const minuteOf = (at: number): number => at - (at % 60_000);
    const ranges: Array<[number, number]> = [
      [times[3]!, times[times.length - 4]!],
      [times[3]! + 1, times[times.length - 4]! - 1],
      [minuteOf(times[5]!), minuteOf(times[20]!) - 1],
      [minuteOf(times[5]!) + 1, times[5]!],
      [times[6]!, times[7]!],
      [minuteOf(times[8]!) + 30_000, minuteOf(times[8]!) + 89_999],
      [first - 60_000, last + 60_000],
    ];
    for (const [from, to] of ranges) {
      expect(await total(uid, { from, to })).toBe(counted(from, to, null));
      expect(await total(uid, { from })).toBe(counted(from, Infinity, null));
      expect(await total(uid, { to })).toBe(counted(0, to, null));
      expect(await total(uid, { from, to, label: 'Accepted' })).toBe(
        counted(from, to, ['Accepted']),
      );
    }
  }

  /** The volume's buckets and the activity's hours, each as the entries count them. */
  async function expectChartsCounted(): Promise<void> {
    for (const range of ['24h', '7d'] as const) {
      const volume = await relay.call('deliveries.volume', { uid: hook.webhook.uid, range });
      const since = Date.parse(volume.since);
      const bucketMs = volume.bucketMinutes * 60_000;
      const expected = volume.buckets.map(empty);
      for (const d of await entries(hook.webhook.uid)) {
        const at = Date.parse(d.receivedAt);
        if (at < since) continue;
        expected[Math.min(Math.floor((at - since) / bucketMs), expected.length - 1)]![d.label]++;
      }
      expect(volume.buckets).toEqual(expected);
    }
    const activity = await relay.call('deliveries.activity', {});
    const since = Date.parse(activity.since);
    for (const item of activity.items) {
      const expected = item.hours.map(empty);
      for (const d of await entries(item.uid)) {
        const at = Date.parse(d.receivedAt);
        if (at >= since) expected[Math.min(Math.floor((at - since) / 3_600_000), 23)]![d.label]++;
      }
      expect(item.hours).toEqual(expected);
    }
  }

  it('counts accepted, duplicate and rejected entries exactly, at every bound', async () => {
    await deliver(hook, 60);
    await deliver(other, 4);
    clock = START + 3 * DAY_MS + 41_500;
    await deliver(hook, 12);
    expect((await entries(hook.webhook.uid)).length).toBe(72);
    await expectTotalsCounted(hook.webhook.uid);
    await expectChartsCounted();
  });

  it('stays exact after retention prunes the oldest entries', async () => {
    await relay.stop();
    await start(START + 9 * DAY_MS + 7_000);
    await waitFor(
      () => relay.logs.find((l) => /^\[retention\] pruned [1-9]\d* deliveries$/.test(l)),
      'the prune at start',
    );
    await deliver(hook, 9);
    // The newest 50 of the busy webhook stay; the other's old entries are all gone.
    expect((await entries(hook.webhook.uid)).length).toBe(50 + 9);
    expect(await total(other.webhook.uid, {})).toBe((await entries(other.webhook.uid)).length);
    await expectTotalsCounted(hook.webhook.uid);
    await expectChartsCounted();
  });
});
