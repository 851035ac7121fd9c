import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import {
  isSqliteStore,
  openSqliteStore,
  sqliteDbOf,
} from '../../../src/main/store/sqlite/sqlite-store.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSearchIndex } from '../../../src/main/store/sqlite/search-index.js';
import { seedLog } from '../../support/seed-log.js';
import { waitFor } from '../../support/wait.js';

/**
 * Issue 15: the relay closes its SQLite writer thread after a quiet spell (30 s; here 50 ms) and
 * starts another for the next delivery. A sender after the quiet spell gets its 202 only once
 * its delivery is on disk, as before it; if the data dir itself is gone by then (something
 * removed it under the running relay), the sender is told to retry and the log says where.
 */
describe('the writer thread after an idle close', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    // The one test-only setting, given to the store this test opens itself.
    relay = await startTestRelay({
      openStore: ({ dataDir, log }) =>
        openSqliteStore(join(dataDir, 'hookport.sqlite'), {
          log,
          dedupeWindowMs: DEDUPE_WINDOW_MS,
          writerIdleCloseMs: 50,
        }),
    });
  });
  afterEach(() => relay.stop());

  const awake = (): boolean => {
    const store = relay.core.store;
    if (!isSqliteStore(store)) throw new Error('this relay does not keep its data in SQLite');
    return store.writerThread.awake;
  };

  const storedIds = (): string[] => {
    // A connection of its own: what is in the file, not what the relay holds in memory.
    const db = new Database(join(relay.dataDir, 'hookport.sqlite'), { readonly: true });
    try {
      return db
        .prepare<[], { id: string }>(
          "SELECT id FROM deliveries WHERE label = 'Accepted' ORDER BY id",
        )
        .all()
        .map((r) => r.id);
    } finally {
      db.close();
    }
  };

  it('starts a new thread for the next delivery, which is committed before its 202', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'quiet-then-busy' });
    const before = await postDelivery(ingressUrl, '{"n":1}', bearer(secret));
    expect(before.status).toBe(202);
    await waitFor(() => !awake(), 'the idle writer thread to close');

    const after = await postDelivery(ingressUrl, '{"n":2}', bearer(secret));
    expect(after.status).toBe(202);
    expect(awake()).toBe(true);
    expect(storedIds()).toEqual([before.body.delivery_id, after.body.delivery_id].sort());
    expect(relay.logs.filter((line) => line.includes('[store]'))).toEqual([]);
  });

  it('indexes the search queue in the background, and stays up until it is empty and merged', async () => {
    const { secret, ingressUrl, webhook } = await relay.createWebhook({ name: 'backlog' });
    // A backlog that takes the thread far longer than its 50 ms idle close to index.
    seedLog(sqliteDbOf(relay.core.store), webhook.uid, 5_000);
    // The relay's own count of its queue: a second index connection here would race the relay's
    // index thread to configure the file (database is locked, under load).
    const pending = (): Promise<number> =>
      Promise.resolve(relay.core.store.metrics.searchPending());
    expect(await pending()).toBe(5_000);
    expect((await postDelivery(ingressUrl, '{"n":"wake"}', bearer(secret))).status).toBe(202);

    await waitFor(async () => (await pending()) === 0, 'the queue to be indexed', {
      timeoutMs: 60_000,
    });
    await waitFor(() => !awake(), 'the thread to close once done');
    // Its merges done too: a quiet relay closed it once the queue was empty, the merges that keep
    // searches fast (and drop a prune's rows) left half done until the next delivery.
    const index = createSearchIndex(sqliteDbOf(relay.core.store));
    try {
      expect(index.mergeSome(0)).toBe(false);
    } finally {
      index.close();
    }
    const indexed = sqliteDbOf(relay.core.store)
      .prepare<[], { n: number }>('SELECT count(*) AS n FROM search.delivery_search')
      .get()!.n;
    expect(indexed).toBe(5_001);
  });

  it('answers 503 with Retry-After, naming the file, when its data dir was removed meanwhile', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'dir-removed' });
    expect((await postDelivery(ingressUrl, '{"n":1}', bearer(secret))).status).toBe(202);
    await waitFor(() => !awake(), 'the idle writer thread to close');
    rmSync(relay.dataDir, { recursive: true, force: true });

    const refused = await postDelivery(ingressUrl, '{"n":2}', bearer(secret));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(relay.logs).toContainEqual(
      `[store] a delivery batch failed to commit: Error: the SQLite writer thread cannot open ${join(relay.dataDir, 'hookport.sqlite')}: Cannot open database because the directory does not exist`,
    );
  });
});
