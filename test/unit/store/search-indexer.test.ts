import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { SearchIndexer, type IndexPacing, type IndexRun } from '../../../src/main/store/search-index.js';

/**
 * The pacing policy alone, ticked by hand: each slice "indexes" one entry that takes `entryMs`
 * (as a 64 KB payload takes longer than a slice's budget) and says more are queued. The real
 * indexes on SQLite and PostgreSQL are tested in integration/deliveries/search.test.ts and
 * integration/postgres/search-index.test.ts.
 */
const PACING: IndexPacing = {
  busy: { ms: 1, share: 0.05 },
  behind: { ms: 1, share: 0.1 },
  idle: { ms: 1, share: 0.5 },
};

function overrunningIndexer(entryMs: number, pacing = PACING) {
  const slices: number[] = [];
  const indexer = new SearchIndexer(
    {
      indexSome: (budgetMs: number): IndexRun => {
        const until = performance.now() + entryMs;
        while (performance.now() < until);
        slices.push(budgetMs);
        return { indexed: 1, more: true };
      },
    },
    pacing,
    (error) => {
      throw error;
    },
  );
  return { indexer, slices };
}

describe('SearchIndexer pacing', () => {
  it('follows a quiet slice that overran its budget at once: the catch-up is not stretched', () => {
    const { indexer, slices } = overrunningIndexer(20);
    indexer.tick();
    indexer.tick();
    indexer.tick();
    expect(slices).toEqual([1, 1, 1]);
  });

  it('rests in proportion after an overrunning slice while deliveries arrive', () => {
    const { indexer, slices } = overrunningIndexer(20);
    indexer.markBusy();
    indexer.tick();
    // 20 ms at a 5 % share: no slice for the next 380 ms, however often it is ticked.
    indexer.markBusy();
    indexer.tick();
    indexer.tick();
    expect(slices).toEqual([1]);
  });

  it('still rests between quiet slices that kept to their budget', () => {
    const { indexer, slices } = overrunningIndexer(1, {
      ...PACING,
      idle: { ms: 50, share: 0.01 },
    });
    indexer.tick();
    // 1 ms at a 1 % share: the next slice may start 100 ms after the first began.
    indexer.tick();
    expect(slices).toEqual([50]);
  });
});
