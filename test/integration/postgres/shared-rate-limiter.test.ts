import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { RateGate } from '../../../src/main/ingress/rate-gate.js';
import { SlidingWindowLimiter } from '../../../src/main/ingress/sliding-window.js';
import {
  FAILED_AUTH_BUDGET,
  FAILED_AUTH_WINDOW_MS,
  DELIVERIES_PER_MINUTE,
  RATE_WINDOW_MS,
} from '../../../src/main/ingress/limits.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import {
  SharedRateLimiter,
  type SharedRateLimitOptions,
} from '../../../src/main/store/postgres/shared-rate-limiter.js';
import { usePostgres } from '../../support/postgres.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();

/** Two replicas' limiters on one database, closed after the test. */
async function twoReplicas(
  options: SharedRateLimitOptions,
): Promise<{ a: SharedRateLimiter; b: SharedRateLimiter; pools: PgPool[] }> {
  const { pool, openPool } = await postgres.database();
  const other = openPool();
  return {
    a: new SharedRateLimiter(pool, options),
    b: new SharedRateLimiter(other, options),
    pools: [pool, other],
  };
}

/**
 * What a burst through both replicas may show: never more than the limit, and 429s before it
 * only for slots the other replica holds unused (at most maxBatch − 1); once holds end, the
 * window fills to exactly the limit and no further.
 */
async function expectBoundThenFull(
  accepted: number,
  replicas: SharedRateLimiter[],
  key: string,
): Promise<void> {
  const { limit } = replicas[0]!;
  const maxBatch = Math.max(1, Math.floor(limit / 10));
  expect(accepted).toBeLessThanOrEqual(limit);
  expect(accepted).toBeGreaterThanOrEqual(limit - (maxBatch - 1));
  await waitFor(async () => {
    for (const replica of replicas) {
      while ((await replica.take(key, Date.now())) === 0) accepted++;
    }
    return accepted >= limit;
  }, `${limit} takes to succeed in all`);
  for (const replica of replicas) expect(await replica.take(key, Date.now())).toBeGreaterThan(0);
  expect(accepted).toBe(limit);
}

const limits = [
  {
    scope: 'deliveries',
    limit: DELIVERIES_PER_MINUTE,
    windowMs: RATE_WINDOW_MS,
    key: 'wh_limited',
  },
  {
    scope: 'failed-auth',
    limit: FAILED_AUTH_BUDGET,
    windowMs: FAILED_AUTH_WINDOW_MS,
    key: 'wh_limited 203.0.113.9',
  },
];

describe('SharedRateLimiter', () => {
  it('sits behind the ingress-facing interface beside the in-memory limiter', async () => {
    const { pool } = await postgres.database();
    const gates: RateGate[] = [
      new SlidingWindowLimiter(2, 60_000),
      new SharedRateLimiter(pool, { scope: 'deliveries', limit: 2, windowMs: 60_000 }),
    ];
    for (const gate of gates) {
      const waits = [];
      for (let i = 0; i < 3; i++) waits.push(await gate.take('wh_one', Date.now()));
      expect(waits.slice(0, 2)).toEqual([0, 0]);
      expect(waits[2]).toBeGreaterThanOrEqual(59);
      expect(waits[2]).toBeLessThanOrEqual(61);
    }
  });

  it.each(limits)(
    'holds $limit per window ($scope) across two replicas, taking in turn',
    async ({ scope, limit, windowMs, key }) => {
      const { a, b } = await twoReplicas({ scope, limit, windowMs });
      let accepted = 0;
      for (let i = 0; i < limit * 1.5; i++) {
        const wait = await (i % 2 === 0 ? a : b).take(key, Date.now());
        if (wait === 0) {
          accepted++;
        } else {
          expect(wait).toBeGreaterThan(0);
          expect(wait).toBeLessThanOrEqual(Math.ceil(windowMs / 1000) + 2);
        }
      }
      await expectBoundThenFull(accepted, [a, b], key);
    },
  );

  it.each(limits)(
    'holds $limit per window ($scope) when both replicas take all at once',
    async ({ scope, limit, windowMs, key }) => {
      const { a, b } = await twoReplicas({ scope, limit, windowMs });
      const waits = await Promise.all(
        Array.from({ length: limit * 1.5 }, async (_, i) =>
          (i % 2 === 0 ? a : b).take(key, Date.now()),
        ),
      );
      await expectBoundThenFull(waits.filter((w) => w === 0).length, [a, b], key);
    },
  );

  it('never lets more than the limit through in any window, as the window slides', async () => {
    const limit = 5;
    const windowMs = 1_500;
    const { a, b } = await twoReplicas({
      scope: 'deliveries',
      limit,
      windowMs,
      holdMs: 200,
      maxBatch: 3,
    });
    const acceptedAt: number[] = [];
    const until = performance.now() + 4_000;
    const sender = async (limiter: SharedRateLimiter): Promise<void> => {
      while (performance.now() < until) {
        if ((await limiter.take('wh_sliding', Date.now())) === 0)
          acceptedAt.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
      }
    };
    await Promise.all([sender(a), sender(a), sender(b), sender(b)]);

    acceptedAt.sort((x, y) => x - y);
    for (const start of acceptedAt) {
      const inWindow = acceptedAt.filter((t) => t >= start && t < start + windowMs);
      expect(inWindow.length).toBeLessThanOrEqual(limit);
    }
    // The window slid: more than one window's worth went through over the run.
    expect(acceptedAt.length).toBeGreaterThan(limit);
  });

  it('reserves slots in batches and remembers a spent limit, instead of a round trip per take', async () => {
    const { pool } = await postgres.database();
    const limiter = new SharedRateLimiter(pool, {
      scope: 'deliveries',
      limit: DELIVERIES_PER_MINUTE,
      windowMs: RATE_WINDOW_MS,
    });
    let roundTrips = 0;
    pool.on('acquire', () => roundTrips++);

    for (let i = 0; i < DELIVERIES_PER_MINUTE; i++)
      expect(await limiter.take('wh_busy', 0)).toBe(0);
    const forGrants = roundTrips;
    for (let i = 0; i < 100; i++) expect(await limiter.take('wh_busy', 0)).toBeGreaterThan(0);
    const forRefusals = roundTrips - forGrants;

    expect(forGrants).toBeLessThan(DELIVERIES_PER_MINUTE / 3);
    expect(forRefusals).toBeLessThan(10);
  });

  it('keeps scopes and keys apart, gives unused slots back on close, and sweeps old grants', async () => {
    const { a, b, pools } = await twoReplicas({
      scope: 'deliveries',
      limit: 10,
      windowMs: 60_000,
      holdMs: 60_000,
      maxBatch: 4,
    });
    // a's batches grow 1, 2, 4: seven slots reserved, four used, three held.
    for (let i = 0; i < 4; i++) expect(await a.take('wh_x', 0)).toBe(0);
    // b takes the last three; then the database is spent while a still holds three.
    for (let i = 0; i < 3; i++) expect(await b.take('wh_x', 0)).toBe(0);
    expect(await b.take('wh_x', 0)).toBeGreaterThan(0);
    expect(await b.take('wh_y', 0)).toBe(0);

    await a.close();
    await waitFor(async () => (await b.take('wh_x', 0)) === 0, 'a slot given back by a');

    const shortLived = new SharedRateLimiter(pools[0]!, {
      scope: 'failed-auth',
      limit: 2,
      windowMs: 200,
      holdMs: 100,
    });
    expect(await shortLived.take('wh_x', 0)).toBe(0);
    const grantsOf = async (scope: string): Promise<number> =>
      (await pools[0]!.query('SELECT 1 FROM rate_grants WHERE scope = $1', [scope])).rowCount ?? 0;
    expect(await grantsOf('failed-auth')).toBe(1);
    await waitFor(async () => (await shortLived.sweep()) === 1, 'the grant to leave its window');
    expect(await grantsOf('failed-auth')).toBe(0);
    expect(await grantsOf('deliveries')).toBeGreaterThan(0);
  });
});
