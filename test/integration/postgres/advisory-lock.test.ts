import { describe, expect, it } from 'vitest';
import { withAdvisoryLock } from '../../../src/main/store/postgres/advisory-lock.js';
import { usePostgres } from '../../support/postgres.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();

/** A job that runs until released, so that a second replica can try while it holds the lock. */
function gatedJob(): { job: () => Promise<string>; started: () => boolean; finish: () => void } {
  let started = false;
  let finish: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (finish = resolve));
  return {
    job: async () => {
      started = true;
      await gate;
      return 'pruned';
    },
    started: () => started,
    finish: () => finish(),
  };
}

describe('withAdvisoryLock', () => {
  it('runs a job on one replica at a time; the others skip it', async () => {
    const { pool, openPool } = await postgres.database();
    const other = openPool();
    const first = gatedJob();

    const running = withAdvisoryLock(pool, 'retention', first.job);
    await waitFor(first.started, 'the first replica to start the job');
    let secondRan = false;
    expect(
      await withAdvisoryLock(other, 'retention', () => Promise.resolve((secondRan = true))),
    ).toEqual({ ran: false });
    expect(
      await withAdvisoryLock(other, 'definition-sync', () => Promise.resolve('synced')),
    ).toEqual({ ran: true, value: 'synced' });
    first.finish();

    expect(await running).toEqual({ ran: true, value: 'pruned' });
    expect(secondRan).toBe(false);
    expect(await withAdvisoryLock(other, 'retention', () => Promise.resolve('next'))).toEqual({
      ran: true,
      value: 'next',
    });
  });

  it('releases the lock when the job fails, and passes the failure on', async () => {
    const { pool, openPool } = await postgres.database();
    await expect(
      withAdvisoryLock(pool, 'retention', () => Promise.reject(new Error('disk full'))),
    ).rejects.toThrow('disk full');
    expect(await withAdvisoryLock(openPool(), 'retention', () => Promise.resolve(1))).toEqual({
      ran: true,
      value: 1,
    });
  });

  it('is released by the server when the holding replica’s connection dies', async () => {
    const { pool, openPool } = await postgres.database();
    const other = openPool();
    const first = gatedJob();
    const running = withAdvisoryLock(pool, 'retention', first.job);
    await waitFor(first.started, 'the first replica to start the job');

    await other.query(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid()
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );

    await waitFor(
      async () => (await withAdvisoryLock(other, 'retention', () => Promise.resolve(1))).ran,
      'the lock to be free',
    );
    first.finish();
    // The job itself finished; the dead connection was dropped, not handed back to the pool.
    expect(await running).toEqual({ ran: true, value: 'pruned' });
    expect(pool.totalCount).toBe(0);
  });
});
