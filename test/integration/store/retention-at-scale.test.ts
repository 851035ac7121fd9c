import { rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';
import { webhookTrigger } from '../../support/automations.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';
import { waitFor } from '../../support/wait.js';

const DAY_MS = 24 * 60 * 60_000;
const NOW = Date.parse('2026-03-09T12:00:00Z');
const CUTOFF = NOW - 7 * DAY_MS;
/** 8 days of one webhook: entry i at CUTOFF - 1 day + i × STEP, so entry 6,250 is exactly at the cutoff. */
const COUNT = 50_000;
const STEP_MS = (8 * DAY_MS) / COUNT;
const AT_CUTOFF = COUNT / 8;
/**
 * Generous (a loaded machine deschedules the thread for hundreds of milliseconds): retention
 * works in 2 ms slices on the writer thread; the window it replaced held this thread for seconds.
 */
const LOOP_DELAY_BOUND_MS = 1_500;
/** Payloads of 200 KB for the filter lab: 80 MB to read and parse. */
const LAB_PAYLOADS = 400;
/** A page of entries without a stored summary, 47 KB each: 23 MB parsed for their summaries. */
const WIDE_PAGE = 500;

/**
 * Issue 28 at a test's size (PRODUCT §9): 50,000 entries of which a day is past retention, and a
 * quiet webhook whose every entry is old. The relay restarts on the file (a prune at start); the
 * event loop's delay is measured meanwhile, and a sender is answered while it runs.
 */
describe('retention on a large log (sqlite)', () => {
  const dataDir = tempDir();
  let relay: TestRelay;
  let busy: CreatedWebhook;
  let quiet: CreatedWebhook;
  let lab: CreatedWebhook;
  let wide: CreatedWebhook;
  let ids: string[] = [];
  let quietIds: string[] = [];
  let loopMaxMs = 0;
  const senderStatuses: number[] = [];
  const config = { dataDir, now: () => NOW, limits: { deliveriesPerMinute: 1_000_000 } };

  const list = (uid: string, query: Omit<MethodInput<'deliveries.list'>, 'uid'>) =>
    relay.call('deliveries.list', { uid, ...query });

  beforeAll(async () => {
    relay = await startTestRelay(config);
    busy = await relay.createWebhook({ name: 'busy' });
    quiet = await relay.createWebhook({ name: 'quiet' });
    // Every request before the seeding: a keep-alive socket idle through it may be closed under
    // the next one.
    lab = await relay.createWebhook({ name: 'lab' });
    wide = await relay.createWebhook({ name: 'wide' });
    const db = sqliteDbOf(relay.core.store);
    ids = seedLog(db, busy.webhook.uid, COUNT, {
      atOf: (i) => CUTOFF - DAY_MS + i * STEP_MS,
      bodyOf: (i) => `{"n":${i},"word":"entry${i}x"}`,
    });
    // Ten days old, odd milliseconds: never the busy webhook's IDs.
    quietIds = seedLog(db, quiet.webhook.uid, 60, { atOf: (i) => NOW - 10 * DAY_MS + 2 * i + 1 });
    const filler = 'x'.repeat(200_000);
    seedLog(db, lab.webhook.uid, LAB_PAYLOADS, {
      atOf: (i) => NOW - 60_000 + i * 10 + 3,
      labelOf: () => 'Accepted',
      bodyOf: (i) => `{"action":"${i % 2 ? 'opened' : 'closed'}","filler":"${filler}"}`,
    });
    // Many small objects: what makes a payload slow to parse, unlike one long string.
    const wideFiller = JSON.stringify(Array.from({ length: 2_400 }, (_, k) => ({ k, v: 'ab' })));
    seedLog(db, wide.webhook.uid, WIDE_PAGE, {
      atOf: (i) => NOW - 50_000 + i * 10 + 5,
      labelOf: () => 'Accepted',
      bodyOf: (i) => `{"action":"opened","n":${i},"items":${wideFiller}}`,
    });
    await relay.stop();

    const loop = monitorEventLoopDelay({ resolution: 1 });
    relay = await startTestRelay(config);
    loop.enable();
    const sending = (async () => {
      while (!relay.logs.some((line) => line.startsWith('[retention] pruned'))) {
        const sent = await postDelivery(
          relay.ingressUrl + `/webhooks/w/${busy.webhook.uid}`,
          '{"live":true}',
          bearer(busy.secret),
        );
        senderStatuses.push(sent.status);
      }
    })();
    await waitFor(
      () => relay.logs.find((line) => line.startsWith('[retention] pruned')),
      'the prune at start',
      { timeoutMs: 120_000 },
    );
    loop.disable();
    loopMaxMs = loop.max / 1e6;
    await sending;
  }, 300_000);
  afterAll(async () => {
    await relay?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prunes the day past retention and the quiet webhook beyond its newest 50, without holding the event loop', () => {
    expect(relay.logs).toContain(`[retention] pruned ${AT_CUTOFF + 10} deliveries`);
    expect(loopMaxMs).toBeLessThan(LOOP_DELAY_BOUND_MS);
    expect(senderStatuses.length).toBeGreaterThan(0);
    expect(senderStatuses.every((status) => status === 202)).toBe(true);
  });

  it('answers exactly at the boundary: the entry at the cutoff stays, the one before it is gone', async () => {
    expect((await relay.callError('deliveries.get', { id: ids[AT_CUTOFF - 1]! })).code).toBe(
      'not_found',
    );
    expect((await relay.call('deliveries.get', { id: ids[AT_CUTOFF]! })).id).toBe(ids[AT_CUTOFF]);
    const upToCutoff = await list(busy.webhook.uid, { to: String(CUTOFF) });
    expect(upToCutoff.total).toBe(1);
    expect(upToCutoff.items[0]!.id).toBe(ids[AT_CUTOFF]);
    const fromCutoff = await list(busy.webhook.uid, {
      from: String(CUTOFF),
      to: String(NOW - 1),
    });
    expect(fromCutoff.total).toBe(COUNT - AT_CUTOFF);
    // Identities are searched too: the pruned entry's is found nowhere, the kept one's once.
    const gone = await list(busy.webhook.uid, { q: `seed-${AT_CUTOFF - 1}` });
    expect(gone.total).toBe(0);
    const kept = await list(busy.webhook.uid, { q: `entry${AT_CUTOFF}x` });
    expect(kept.items.map((d) => d.id)).toEqual([ids[AT_CUTOFF]]);
    const quietLeft = await list(quiet.webhook.uid, { limit: 200, to: String(NOW - 1) });
    expect(quietLeft.items.map((d) => d.id)).toEqual(quietIds.slice(10).reverse());
  });

  it('pages consistently to the end of the pruned log', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    let total: number | undefined;
    do {
      const page = await list(busy.webhook.uid, {
        limit: 500,
        to: String(NOW - 1),
        ...(before ? { before } : {}),
      });
      total = page.total;
      seen.push(...page.items.map((d) => d.id));
      before = page.nextBefore;
    } while (before);
    expect(total).toBe(COUNT - AT_CUTOFF);
    expect(seen).toEqual(ids.slice(AT_CUTOFF).reverse());
  }, 180_000);

  /**
   * One delivery after another while `work` runs, and the statuses of those answered before it
   * ended: work that held the event loop lets one through at most, before it begins or after it
   * ends.
   */
  async function answeredWhile<T>(
    work: Promise<T>,
    during: string,
  ): Promise<{ result: T; answered: number[] }> {
    let done = false;
    const watched = work.finally(() => (done = true));
    const answered: number[] = [];
    while (!done) {
      const sent = await postDelivery(
        `${relay.ingressUrl}/webhooks/w/${busy.webhook.uid}`,
        JSON.stringify({ during }),
        bearer(busy.secret),
      );
      if (!done) answered.push(sent.status);
    }
    return { result: await watched, answered };
  }

  it('answers a sender while the filter lab parses 400 payloads of 200 KB', async () => {
    const { result: answer, answered: answeredDuring } = await answeredWhile(
      relay.call('automations.filterMatches', {
        trigger: webhookTrigger([lab.webhook.uid], { action: 'opened' }),
        limit: LAB_PAYLOADS,
      }),
      'lab',
    );
    expect(answer).toMatchObject({ scanned: LAB_PAYLOADS, matched: LAB_PAYLOADS / 2 });
    expect(answeredDuring.length).toBeGreaterThanOrEqual(3);
    expect(answeredDuring.every((status) => status === 202)).toBe(true);
  }, 120_000);

  it('answers a sender while a page of 500 entries of 47 KB is read with their summaries', async () => {
    const { result: page, answered: answeredDuring } = await answeredWhile(
      list(wide.webhook.uid, { limit: WIDE_PAGE }),
      'page',
    );
    expect(page.items).toHaveLength(WIDE_PAGE);
    expect(answeredDuring.length).toBeGreaterThanOrEqual(3);
    expect(answeredDuring.every((status) => status === 202)).toBe(true);
  }, 120_000);

  it('answers a sender while the field scan parses 200 payloads of 200 KB', async () => {
    const { result: answer, answered: answeredDuring } = await answeredWhile(
      relay.call('webhooks.fields', { uid: lab.webhook.uid, limit: LAB_PAYLOADS / 2 }),
      'fields',
    );
    expect(answer.scanned).toBe(LAB_PAYLOADS / 2);
    expect(answer.items.map((field) => field.path).sort()).toEqual(['action', 'filler']);
    expect(answeredDuring.length).toBeGreaterThanOrEqual(3);
    expect(answeredDuring.every((status) => status === 202)).toBe(true);
  }, 120_000);
});
