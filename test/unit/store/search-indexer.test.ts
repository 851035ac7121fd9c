import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LARGE_WAIT_MS,
  SearchIndexer,
  type IndexPacing,
  type IndexRun,
} from '../../../src/main/store/search-indexer.js';
import { SQLITE_PACING } from '../../../src/main/store/sqlite/search-index.js';

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

describe('SearchIndexer and large entries', () => {
  const SIZED: IndexPacing = {
    busy: { ms: 1, share: 0.5, largestEntry: 100 },
    behind: { ms: 1, share: 0.5, largestEntry: 100 },
    idle: { ms: 1, share: 0.5 },
  };

  /** An index that says it passed over large entries until `deferredFor` slices have run. */
  function deferringIndexer(deferredFor: number) {
    const limits: (number | undefined)[] = [];
    const indexer = new SearchIndexer(
      {
        indexSome: (_budgetMs: number, largestEntry?: number): IndexRun => {
          limits.push(largestEntry);
          return { indexed: 1, more: true, deferred: limits.length < deferredFor };
        },
      },
      SIZED,
      (error) => {
        throw error;
      },
    );
    return { indexer, limits };
  }

  // The indexer's clock, moved by hand: a minute's wait in no time.
  let now = 0;
  const advance = (ms: number): void => {
    now += ms;
  };
  beforeEach(() => {
    now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => vi.restoreAllMocks());

  it('passes over large entries while deliveries arrive, and takes them once quiet', () => {
    const { indexer, limits } = deferringIndexer(Infinity);
    indexer.markBusy();
    indexer.tick();
    advance(10);
    indexer.markBusy();
    indexer.tick();
    advance(10);
    indexer.tick();
    expect(limits).toEqual([100, 100, undefined]);
  });

  it(`takes them in order while busy once one has waited ${LARGE_WAIT_MS / 1000} s, until none is left`, () => {
    const { indexer, limits } = deferringIndexer(4);
    const busyTick = (): void => {
      indexer.markBusy();
      indexer.tick();
    };
    busyTick();
    advance(LARGE_WAIT_MS - 1);
    busyTick();
    advance(1);
    busyTick();
    advance(10);
    // The third slice reported no entry passed over any more: the limit is back.
    busyTick();
    advance(10);
    busyTick();
    expect(limits).toEqual([100, 100, undefined, undefined, 100]);
  });
});

describe('SearchIndexer and a steady sender', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => vi.restoreAllMocks());

  it('keeps the busy share between deliveries that come less than quietAfterMs apart', () => {
    const sizes: number[] = [];
    const indexer = new SearchIndexer(
      {
        indexSome: (budgetMs: number): IndexRun => {
          sizes.push(budgetMs);
          now += 1;
          return { indexed: 1, more: true };
        },
      },
      {
        busy: { ms: 1, share: 0.5 },
        behind: { ms: 1, share: 0.5 },
        idle: { ms: 9, share: 0.5 },
        quietAfterMs: 500,
      },
      (error) => {
        throw error;
      },
    );
    // A delivery every 200 ms, a tick halfway between them: never quiet for 500 ms.
    for (let i = 0; i < 3; i++) {
      indexer.markBusy();
      now += 100;
      indexer.tick();
      now += 100;
    }
    // Then a lull: 500 ms after the last delivery the idle slices begin.
    now += 300;
    indexer.tick();
    expect(sizes).toEqual([1, 1, 1, 9]);
  });
});

describe('SearchIndexer and merging', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => vi.restoreAllMocks());

  /**
   * An indexer over `indexSome` whose merge steps are logged in `calls`, with `merges.left` more
   * to do; `tickAfter` moves the mocked clock on and ticks it.
   */
  function mergingIndexer(
    calls: string[],
    merges: { left: number },
    indexSome: () => IndexRun,
    quietAfterMs?: number,
  ) {
    const indexer = new SearchIndexer(
      {
        indexSome,
        mergeSome: (): boolean => {
          calls.push('merge');
          return --merges.left > 0;
        },
      },
      {
        busy: { ms: 1, share: 0.5 },
        behind: { ms: 1, share: 0.5 },
        idle: { ms: 1, share: 0.5 },
        ...(quietAfterMs === undefined ? {} : { quietAfterMs }),
      },
      (error) => {
        throw error;
      },
    );
    const tickAfter = (ms: number): void => {
      now += ms;
      indexer.tick();
    };
    return { indexer, tickAfter };
  }

  it('merges only with nothing queued and no commit since the last slice, and again after entries are indexed', () => {
    const calls: string[] = [];
    let queued = 2;
    const merges = { left: 2 };
    const { indexer, tickAfter } = mergingIndexer(
      calls,
      merges,
      (): IndexRun => {
        calls.push('index');
        const indexed = Math.min(queued, 1);
        queued -= indexed;
        return { indexed, more: queued > 0 };
      },
      500,
    );
    // Each tick after a commit indexes: the new entries first.
    indexer.markBusy();
    tickAfter(10);
    indexer.markBusy();
    tickAfter(10);
    expect(calls).toEqual(['index', 'index']);
    // No commit since, the queue found empty: merges until none is left (at the busy share,
    // not yet quiet), then a look at the queue later.
    tickAfter(10);
    tickAfter(10);
    tickAfter(10);
    tickAfter(1_500);
    expect(calls).toEqual(['index', 'index', 'merge', 'merge', 'index']);
    // What keeps SQLite's idle writer thread up: nothing now.
    expect(indexer.mergesLeft()).toBe(false);
    // A delivery indexed: merging is due again once quiet.
    queued = 1;
    merges.left = 1;
    indexer.markBusy();
    tickAfter(10);
    expect(indexer.mergesLeft()).toBe(true);
    tickAfter(10);
    tickAfter(10);
    expect(calls.slice(5)).toEqual(['index', 'merge']);
    expect(indexer.mergesLeft()).toBe(false);
  });

  it("forgets a prune's entries before it merges on, and merges again after forgetting", () => {
    const calls: string[] = [];
    let forgettable = 0;
    const merges = { left: 1_000 };
    const { indexer, tickAfter } = mergingIndexer(calls, merges, (): IndexRun => {
      const forgotten = Math.min(forgettable, 2);
      forgettable -= forgotten;
      calls.push(forgotten > 0 ? 'forget' : 'index');
      return { indexed: 0, more: forgettable > 0, forgotten };
    });
    // A quiet relay: the queue found empty (looked at again a second later), a long merge under way.
    tickAfter(10);
    tickAfter(1_500);
    tickAfter(10);
    expect(calls).toEqual(['index', 'merge', 'merge']);
    // Retention prunes 3 entries: forgetting them comes before the rest of the merge.
    forgettable = 3;
    indexer.pruned();
    tickAfter(10);
    tickAfter(10);
    tickAfter(10);
    expect(calls.slice(3)).toEqual(['forget', 'forget', 'merge']);
    // The merge ends; a rowid queued to be forgotten without a prune (an entry deleted) is found
    // at the next look, and its forgetting makes merging due again.
    merges.left = 1;
    tickAfter(10);
    forgettable = 1;
    tickAfter(1_500);
    merges.left = 1;
    tickAfter(10);
    expect(calls.slice(6)).toEqual(['merge', 'forget', 'merge']);
  });
});

describe("SearchIndexer and the writer's load", () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
  });
  afterEach(() => vi.restoreAllMocks());

  /**
   * The relay's own pacing beside a sender that commits every `everyMs` for `commitMs`: a queue
   * of `queued` entries of `entryMs` each (a 1 KB payload's indexing on the loaded machine),
   * ticked as the thread's timer would be. Answers how many simulated seconds the queue took.
   */
  function catchUp(everyMs: number, commitMs: number, queued: number, entryMs = 1): number {
    let left = queued;
    const indexer = new SearchIndexer(
      {
        indexSome: (budgetMs: number): IndexRun => {
          const indexed = Math.min(left, Math.max(1, Math.floor(budgetMs / entryMs)));
          left -= indexed;
          now += indexed * entryMs;
          return { indexed, more: left > 0 };
        },
      },
      SQLITE_PACING,
      (error) => {
        throw error;
      },
    );
    const started = now;
    let nextCommit = now;
    // Two simulated minutes at most: the assertions say how much less it took.
    while (left > 0 && now - started < 120_000) {
      if (now >= nextCommit) {
        now += commitMs;
        indexer.markBusy(commitMs);
        nextCommit += everyMs;
      }
      indexer.tick();
      now += 2.5;
    }
    return (now - started) / 1000;
  }

  it("takes most of an idle writer beside a light sender: a restart's queue in seconds, not hours", () => {
    // 5 deliveries a second, 1 ms each: the writer idle 99.5 % of the time.
    const seconds = catchUp(200, 1, 20_000);
    // At the busy share alone (4 %), 20,000 ms of indexing would take over 8 minutes.
    expect(seconds).toBeLessThan(40);
  });

  it('keeps the busy share beside a sender that fills the writer', () => {
    // A commit of 4 ms every 5 ms: the writer busy 80 % of the time.
    const saturated = catchUp(5, 4, 2_000);
    const light = catchUp(200, 1, 2_000);
    expect(saturated).toBeGreaterThan(light * 5);
  });

  it("measures the writer's load from its commits' time, decaying once they stop", () => {
    const indexer = new SearchIndexer(
      { indexSome: () => ({ indexed: 0, more: false }) },
      SQLITE_PACING,
      () => {},
    );
    for (let i = 0; i < 1_000; i++) {
      now += 4;
      indexer.markBusy(4);
      now += 1;
    }
    expect(indexer.writerLoad()).toBeGreaterThan(0.7);
    now += 10_000;
    expect(indexer.writerLoad()).toBeLessThan(0.01);
  });
});
