import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import { indexAll } from '../../support/index-all.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

const ROUNDS = 400;

/**
 * A replay (or any new entry) is queued for the search index at its commit and taken by the index
 * thread within milliseconds: a search made right then must find it, queued or indexed. Before
 * each search read one snapshot (read-snapshot.ts), 18 of 400 rounds missed the replay.
 */
describe('a search while its entry is being indexed', () => {
  let relay: TestRelay;
  let uid: string;
  let originals: string[];

  beforeAll(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'replayed' })).webhook.uid;
    originals = seedLog(sqliteDbOf(relay.core.store), uid, ROUNDS, {
      bodyOf: (i) => JSON.stringify({ ticket: `tkt-${i}-x` }),
      labelOf: () => 'Accepted',
    });
    await indexAll(sqliteDbOf(relay.core.store));
  });
  afterAll(() => relay.stop());

  it('finds a replay at once, whether the index has taken it yet or not', async () => {
    const missed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await relay.call('deliveries.replay', { id: originals[i]! });
      const found = await relay.call('deliveries.list', { uid, q: `tkt-${i}-x` });
      if (found.items.length !== 2 || found.total !== 2) missed.push(i);
    }
    expect(missed).toEqual([]);
  });
});
