import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/store/open-store.js';
import { usePostgres } from '../../support/postgres.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

const postgres = usePostgres();
const MASTER_KEY = 'b2'.repeat(32);

/**
 * Two relays on one PostgreSQL database, in this process: each checks a name before it writes
 * it, so the same name created through both at the same moment reaches the unique key on one of
 * them. That one answers 409 conflict, never a 500.
 */
describe('the same name created through two relays at once', () => {
  const relays: TestRelay[] = [];
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  });

  it('creates it once and answers the other 409 conflict', async () => {
    const { url } = await postgres.database();
    for (let i = 0; i < 2; i++) {
      relays.push(
        await startTestRelay({
          openStore: (context) =>
            openStore({ ...context, databaseUrl: url, masterKeyFromEnv: MASTER_KEY }),
        }),
      );
    }
    const [a, b] = relays as [TestRelay, TestRelay];
    for (let round = 0; round < 10; round++) {
      const name = `race-${round}`;
      const answers = await Promise.allSettled(
        [a, b].map((relay) =>
          relay.call('webhooks.create', { factory: 'default', name, authMode: 'token' }),
        ),
      );
      const outcomes = answers.map((answer) => answer.status).sort();
      // Whoever lost the race answers as for any taken name: 409 (checked first or refused by the key).
      expect(outcomes, `round ${round}`).toEqual(['fulfilled', 'rejected']);
      const loser = answers.find((answer) => answer.status === 'rejected')!;
      expect(loser.reason).toMatchObject({ code: 'conflict' });
    }
    const listed = await a.call('webhooks.list', { factory: 'default' });
    const names = listed.items.map((w) => w.name);
    expect(names.filter((name) => name.startsWith('race-')).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `race-${i}`),
    );
  });
});
