import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { openPostgresStore } from '../../../src/main/store/postgres/postgres-store.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import { usePostgres } from '../../support/postgres.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

/**
 * A search's page without its total, and the total read apart (`total=later`,
 * `GET /api/webhooks/:uid/deliveries/count`): what the UI does so that a search shows its rows at
 * once while a common text is counted. Over HTTP: the query string is the contract.
 */
const COUNT = 3_000;
const bodyOf = (i: number): string =>
  JSON.stringify({ city: i % 3 === 0 ? 'Tromsø' : 'Lyon', order: `order_${100_000 + i}` });

interface Page {
  items: { id: string }[];
  nextBefore: string | null;
  total?: number;
}

describe('a page now, its total later (SQLite)', () => {
  let relay: TestRelay;
  let uid: string;
  const get = <T>(path: string) => relay.api<T>('GET', path);

  beforeAll(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'orders' })).webhook.uid;
    const start = Date.now() - COUNT * 1000;
    seedLog(sqliteDbOf(relay.core.store), uid, COUNT, { bodyOf, atOf: (i) => start + i * 1000 });
  });
  afterAll(() => relay.stop());

  it('answers the page without a total, and the count endpoint the exact total the page would have had', async () => {
    const q = 'troms%C3%B8';
    const later = await get<Page>(`/api/webhooks/${uid}/deliveries?q=${q}&limit=20&total=later`);
    expect(later.status).toBe(200);
    expect(later.body).not.toHaveProperty('total');
    const exact = await get<Page>(`/api/webhooks/${uid}/deliveries?q=${q}&limit=20`);
    // The same rows either way; only the total moved to its own read.
    expect(later.body.items.map((d) => d.id)).toEqual(exact.body.items.map((d) => d.id));
    expect(later.body.nextBefore).toBe(exact.body.nextBefore);
    const counted = await get<{ total: number }>(`/api/webhooks/${uid}/deliveries/count?q=${q}`);
    expect(counted.status).toBe(200);
    expect(counted.body).toEqual({ total: exact.body.total });
    // Seeded labels cycle Accepted ×3, Duplicate, Rejected: only Accepted entries keep a payload.
    const stored = Array.from({ length: COUNT }, (_, i) => i).filter(
      (i) => i % 3 === 0 && i % 5 < 3,
    );
    expect(counted.body.total).toBe(stored.length);
  });

  it('counts with every filter a page takes, and without one the whole log', async () => {
    const from = Date.now() - 1_000 * 1_000;
    const query = `labels=Duplicate,Rejected%20(auth)&from=${from}`;
    const page = await get<Page>(`/api/webhooks/${uid}/deliveries?${query}&limit=1`);
    const counted = await get<{ total: number }>(`/api/webhooks/${uid}/deliveries/count?${query}`);
    expect(counted.body.total).toBe(page.body.total);
    expect(counted.body.total).toBeGreaterThan(0);
    expect(counted.body.total).toBeLessThan(COUNT);
    expect((await get<{ total: number }>(`/api/webhooks/${uid}/deliveries/count`)).body).toEqual({
      total: COUNT,
    });
  });

  it('counts a delivery from its 202 on', async () => {
    const created = await relay.createWebhook({ name: 'fresh' });
    const path = `/api/webhooks/${created.webhook.uid}/deliveries/count?q=needle_77`;
    expect((await get<{ total: number }>(path)).body.total).toBe(0);
    const sent = await postDelivery(
      created.ingressUrl,
      '{"note":"needle_77"}',
      bearer(created.secret),
    );
    expect(sent.status).toBe(202);
    expect((await get<{ total: number }>(path)).body.total).toBe(1);
  });

  it('refuses what it cannot count, saying why', async () => {
    const badMode = await get<{ error: { code: string; message: string } }>(
      `/api/webhooks/${uid}/deliveries?total=soon`,
    );
    expect(badMode.status).toBe(400);
    expect(badMode.body.error.message).toContain('total: must be one of: exact, later');
    const short = await get<{ error: { message: string } }>(
      `/api/webhooks/${uid}/deliveries/count?q=ab`,
    );
    expect(short.status).toBe(400);
    expect(short.body.error.message).toContain('at least 3 characters');
    const backwards = await get<{ error: { message: string } }>(
      `/api/webhooks/${uid}/deliveries/count?from=2000&to=1000`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.message).toBe('from: must not be later than to');
    const unknown = await get<{ error: { code: string } }>(
      `/api/webhooks/wh_${'0'.repeat(24)}/deliveries/count`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });
});

describe('a page now, its total later (PostgreSQL)', () => {
  const postgres = usePostgres();
  const running: TestRelay[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((relay) => relay.stop()));
  });

  it('counts what the page would have counted, queued for the index or not', async () => {
    const { url } = await postgres.database({ migrate: false });
    const relay = await startTestRelay({
      openStore: ({ log }) =>
        openPostgresStore(url, {
          masterKey: 'c3'.repeat(32),
          dedupeWindowMs: DEDUPE_WINDOW_MS,
          log,
        }),
    });
    running.push(relay);
    const created = await relay.createWebhook({ name: 'tickets' });
    const uid = created.webhook.uid;
    for (let i = 0; i < 12; i++) {
      const body = JSON.stringify({ ticket: `SUP-${i}`, city: i % 4 === 0 ? 'Tromsø' : 'Lyon' });
      expect((await postDelivery(created.ingressUrl, body, bearer(created.secret))).status).toBe(
        202,
      );
    }
    const later = await relay.call('deliveries.list', { uid, q: 'TROMSØ', total: 'later' });
    expect(later.total).toBeUndefined();
    expect(later.items).toHaveLength(3);
    expect(await relay.call('deliveries.count', { uid, q: 'TROMSØ' })).toEqual({ total: 3 });
    expect((await relay.call('deliveries.list', { uid, q: 'TROMSØ' })).total).toBe(3);
  });
});
