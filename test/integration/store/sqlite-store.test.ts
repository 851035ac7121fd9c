import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { DEFAULT_FACTORY_ID } from '../../../src/main/store/factories.js';
import { openSqliteStore, type SqliteStore } from '../../../src/main/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/relay.js';
import { webhookRecord } from '../../support/webhook-record.js';

const webhook = webhookRecord;

/** `Store.transaction` on SQLite: all or nothing, and nothing else joins it. */
describe('the SQLite store', () => {
  let dir: string;
  let store: SqliteStore;
  const logs: string[] = [];
  beforeEach(async () => {
    dir = tempDir('hookport-sqlite-store-');
    const log = { info: () => {}, warn: () => {}, error: (line: string) => logs.push(line) };
    store = await openSqliteStore(join(dir, 'hookport.sqlite'), {
      log,
      dedupeWindowMs: DEDUPE_WINDOW_MS,
    });
    await store.factories.ensure(DEFAULT_FACTORY_ID, 'Default factory', 1);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits every write of a transaction together', async () => {
    const answer = await store.transaction(async (tx) => {
      await tx.webhooks.insert(webhook('wh_a', 'a'));
      await tx.webhooks.insert(webhook('wh_b', 'b'));
      return 'done';
    });
    expect(answer).toBe('done');
    expect((await store.webhooks.live()).map((w) => w.name).sort()).toEqual(['a', 'b']);
  });

  it('keeps none of them when the callback throws, and passes the error on', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.webhooks.insert(webhook('wh_a', 'a'));
        throw new Error('the plan did not apply');
      }),
    ).rejects.toThrow('the plan did not apply');
    expect(await store.webhooks.live()).toEqual([]);
    // The connection is usable afterwards: no transaction was left open.
    await store.webhooks.insert(webhook('wh_c', 'c'));
    expect((await store.webhooks.live()).map((w) => w.name)).toEqual(['c']);
  });

  it('lets a write made outside while it is open wait, so a rollback does not take it along', async () => {
    let outside: Promise<void> | undefined;
    await expect(
      store.transaction(async (tx) => {
        await tx.webhooks.insert(webhook('wh_a', 'a'));
        outside = store.webhooks.insert(webhook('wh_b', 'b'));
        await tx.webhooks.insert(webhook('wh_c', 'c'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await outside;
    expect((await store.webhooks.live()).map((w) => w.name)).toEqual(['b']);
  });

  it('rolls back a callback that awaits something other than its own repositories', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.webhooks.insert(webhook('wh_a', 'a'));
        await new Promise((resolve) => setTimeout(resolve, 5));
        await tx.webhooks.insert(webhook('wh_b', 'b'));
      }),
    ).rejects.toThrow('awaited something other than its own repositories');
    expect(await store.webhooks.live()).toEqual([]);
  });

  it('runs two transactions asked for at once one after the other', async () => {
    const order: string[] = [];
    await Promise.all([
      store.transaction(async (tx) => {
        order.push('first begins');
        await tx.webhooks.insert(webhook('wh_a', 'a'));
        order.push('first ends');
      }),
      store.transaction(async (tx) => {
        order.push('second begins');
        await tx.webhooks.insert(webhook('wh_b', 'b'));
        order.push('second ends');
      }),
    ]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second ends']);
    expect(await store.webhooks.countLive(DEFAULT_FACTORY_ID)).toBe(2);
  });

  it('answers every call with a rejection once closed', async () => {
    await store.close();
    await expect(store.webhooks.live()).rejects.toThrow(/not open/);
    await expect(store.batchStore.commit([])).rejects.toThrow('closed');
  });
});
