import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/open-store.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';
import { indexAll } from '../../support/index-all.js';
import { usePostgres } from '../../support/postgres.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { seedLog } from '../../support/seed-log.js';

const ROUNDS = 400;

/**
 * A replay (or any new entry) is queued for the search index at its commit and taken by the index
 * within milliseconds: a search made right then must find it, queued or indexed. Before each
 * SQLite search read one snapshot (read-snapshot.ts), 18 of 400 rounds missed the replay.
 */
describe('a search while its entry is being indexed', () => {
  describe('on SQLite', () => {
    const COMMON = 2_500;
    let relay: TestRelay;
    /** Each entry holds a text of its own (a rare search, its hits kept by its plan). */
    let rare: { uid: string; originals: string[] };
    /** Every entry holds the same text (its total kept, its page read from a window). */
    let common: { uid: string; originals: string[] };

    beforeAll(async () => {
      relay = await startTestRelay();
      const db = sqliteDbOf(relay.core.store);
      const seeded = async (name: string, count: number, bodyOf: (i: number) => string) => {
        const { uid } = (await relay.createWebhook({ name })).webhook;
        return { uid, originals: seedLog(db, uid, count, { bodyOf, labelOf: () => 'Accepted' }) };
      };
      rare = await seeded('rare', ROUNDS, (i) => JSON.stringify({ ticket: `tkt-${i}-x` }));
      common = await seeded('common', COMMON, (i) =>
        JSON.stringify({ n: i, note: 'quarterly-report' }),
      );
      await indexAll(db);
    });
    afterAll(() => relay.stop());

    it('finds a replay at once, whether the index has taken it yet or not', async () => {
      const missed: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        await relay.call('deliveries.replay', { id: rare.originals[i]! });
        const found = await relay.call('deliveries.list', { uid: rare.uid, q: `tkt-${i}-x` });
        if (found.items.length !== 2 || found.total !== 2) missed.push(i);
      }
      expect(missed).toEqual([]);
    });

    it("counts a common text's replay at once and shows it first, indexed yet or not", async () => {
      const wrong: string[] = [];
      for (let i = 1; i <= 200; i++) {
        const replay = await relay.call('deliveries.replay', { id: common.originals[i]! });
        const found = await relay.call('deliveries.list', {
          uid: common.uid,
          q: 'quarterly-report',
        });
        if (found.total !== COMMON + i) wrong.push(`${i}: total ${found.total}`);
        if (found.items[0]?.id !== replay.delivery_id)
          wrong.push(`${i}: first ${found.items[0]?.id}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  describe('on PostgreSQL', () => {
    const postgres = usePostgres();

    it('finds each replay at once, whether the index has taken it yet or not', async () => {
      const { url } = await postgres.database();
      const relay = await startTestRelay({
        openStore: (context) =>
          openStore({ ...context, databaseUrl: url, masterKeyFromEnv: 'c3'.repeat(32) }),
      });
      try {
        const created = await relay.createWebhook({ name: 'replayed' });
        const sent = await postDelivery(
          created.ingressUrl,
          '{"ticket":"tkt-pg-x"}',
          bearer(created.secret),
        );
        const original = sent.body.delivery_id!;
        const missed: number[] = [];
        // Each replay is one more entry holding the text: the page of 200 shows them all.
        for (let i = 1; i <= 150; i++) {
          await relay.call('deliveries.replay', { id: original });
          const found = await relay.call('deliveries.list', {
            uid: created.webhook.uid,
            q: 'tkt-pg-x',
            limit: 200,
          });
          if (found.items.length !== i + 1 || found.total !== i + 1) missed.push(i);
        }
        expect(missed).toEqual([]);
      } finally {
        await relay.stop();
      }
    });
  });
});
