import { describe, expect, it } from 'vitest';
import { bearer, postDelivery } from '../../support/relay.js';
import { clientOf, createWebhook, useTwoRelays } from './two-relays.js';

const ROUNDS = 120;

/**
 * Two relays index the same database while deliveries arrive: an entry one relay wrote is found,
 * and counted, by a search on the other at once, whichever relay's indexer takes it, and whether
 * it has yet (a queued row is read as it is; search-totals.ts counts on by the index's order).
 */
describe('a search on one relay while both relays index', () => {
  const relays = useTwoRelays();

  it('finds and counts each replay the other relay wrote, at once', async () => {
    const { a, b } = await relays.start();
    const created = await createWebhook(a, { name: 'replayed' });
    const sent = await postDelivery(
      created.ingressUrl,
      '{"ticket":"tkt-both-x"}',
      bearer(created.secret),
    );
    const original = sent.body.delivery_id!;
    const wrong: string[] = [];
    for (let i = 1; i <= ROUNDS; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      await clientOf(writer).call('deliveries.replay', { id: original });
      const found = await clientOf(reader).call('deliveries.list', {
        uid: created.webhook.uid,
        q: 'tkt-both-x',
        limit: 200,
      });
      if (found.items.length !== i + 1) wrong.push(`${i}: ${found.items.length} shown`);
      if (found.total !== i + 1) wrong.push(`${i}: total ${found.total}`);
    }
    expect(wrong).toEqual([]);
  });
});
