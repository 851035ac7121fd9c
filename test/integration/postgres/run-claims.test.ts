import { describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/main/ids.js';
import { INTERRUPTED_BY_CRASH } from '../../../src/main/runs/interrupted.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import { createPostgresRunsRepository } from '../../../src/main/store/postgres/runs-repo.js';
import { usePostgres } from '../../support/postgres.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();

/** The runs repository a relay of this id holds (production's, postgres/runs-repo.ts). */
const replica = (pool: PgPool, replicaId: string, leaseMs = 60_000) =>
  createPostgresRunsRepository(pool, { replicaId, leaseMs });
const endedBy = (reason: string) => (): string => reason;
const SUCCEEDED = {
  status: 'succeeded',
  exitCode: null,
  output: 'done',
  error: null,
  httpStatus: 204,
} as const;

/** A factory with one automation on one webhook, and `count` queued runs of it. */
async function seedQueuedRuns(pool: PgPool, count: number): Promise<string[]> {
  const now = Date.now();
  await pool.query(
    "INSERT INTO factories (id, name, created_at) VALUES ('default', 'Default', $1)",
    [now],
  );
  await pool.query(
    `INSERT INTO webhooks (uid, factory_id, name, auth_mode, secret_name, created_at)
     VALUES ('wh_claims', 'default', 'claims', 'token', 'claims-secret', $1)`,
    [now],
  );
  await pool.query(
    `INSERT INTO automations (id, factory_id, name, prompt, triggers, created_at, updated_at)
     VALUES ('aut_claims', 'default', 'Triage', 'Look at it', '[]', $1, $1)`,
    [now],
  );
  const ids = Array.from({ length: count }, () => newRunId(now));
  await pool.query(
    `INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at)
     SELECT id, 'aut_claims', 'dlv_x', 'wh_claims', 'queued', 'PROMPT', $2 FROM unnest($1::text[]) AS id`,
    [ids, now],
  );
  return ids;
}

async function runRow(pool: PgPool, id: string) {
  const { rows } = await pool.query<{
    status: string;
    lease_owner: string | null;
    error: string | null;
    output: string | null;
    finished_at: number | null;
    http_status: number | null;
    lease_expires_at: number | null;
  }>(
    `SELECT status, lease_owner, error, output, finished_at, http_status, lease_expires_at
     FROM runs WHERE id = $1`,
    [id],
  );
  return rows[0]!;
}

describe('run claims across replicas', () => {
  it('never hand one run to two claimers', async () => {
    const { pool, openPool } = await postgres.database();
    const ids = await seedQueuedRuns(pool, 300);
    const other = openPool();
    // Both connected before either claims: on a loaded machine, a pool still connecting once
    // lost every run to the other, and the test could not tell that from a claim gone wrong.
    await Promise.all([pool.query('SELECT 1'), other.query('SELECT 1')]);
    const replicas = [replica(pool, 'replica-a').runs, replica(other, 'replica-b').runs];

    const claimedBy = await Promise.all(
      replicas.map(async (runs) => {
        const mine: string[] = [];
        for (;;) {
          const batch = await runs.claim('default', 7, Date.now());
          if (batch.length === 0) return mine;
          for (const run of batch) {
            expect(run).toMatchObject({
              status: 'running',
              automationName: 'Triage',
              factoryId: 'default',
              webhookName: 'claims',
              reruns: [],
              httpStatus: null,
            });
          }
          mine.push(...batch.map((r) => r.id));
        }
      }),
    );

    const [a, b] = claimedBy as [string[], string[]];
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual([...ids].sort());
    const owners = await pool.query<{ lease_owner: string; n: number }>(
      "SELECT lease_owner, count(*) AS n FROM runs WHERE status = 'running' GROUP BY 1 ORDER BY 1",
    );
    expect(owners.rows).toEqual([
      { lease_owner: 'replica-a', n: a.length },
      { lease_owner: 'replica-b', n: b.length },
    ]);
  });

  it('interrupt a run whose lease ended while running, and never run it again', async () => {
    const { pool, openPool } = await postgres.database();
    const [id] = await seedQueuedRuns(pool, 1);
    const dead = replica(pool, 'dead-replica', 50);
    const alive = replica(openPool(), 'alive-replica').runs;
    expect((await dead.runs.claim('default', 10, Date.now())).map((r) => r.id)).toEqual([id]);

    const interrupted = await waitFor(async () => {
      const ended = await alive.interruptRunning(endedBy(INTERRUPTED_BY_CRASH), Date.now());
      return ended.length > 0 ? ended : null;
    }, 'the lease to end');

    expect(interrupted.map((r) => [r.id, r.status, r.error])).toEqual([
      [id, 'interrupted', INTERRUPTED_BY_CRASH],
    ]);
    expect(await runRow(pool, id!)).toMatchObject({ status: 'interrupted', lease_owner: null });
    // The replica that was too slow learns it lost the run and cannot overwrite the outcome.
    const lost: string[] = [];
    dead.leases.start({
      onLost: (runId) => lost.push(runId),
      onError: (error) => {
        throw error;
      },
    });
    await waitFor(() => lost.length > 0, 'the lost lease to be noticed');
    dead.leases.stop();
    expect(lost).toEqual([id]);
    await dead.runs.finish(id!, SUCCEEDED, Date.now());
    expect(await runRow(pool, id!)).toMatchObject({ status: 'interrupted', output: null });
    expect(await alive.claim('default', 10, Date.now())).toEqual([]);
  });

  it('keep a renewed lease, and let only its owner finish the run', async () => {
    const { pool, openPool } = await postgres.database();
    const [id] = await seedQueuedRuns(pool, 1);
    // A lease of 6 s is renewed every 2 s: one renewal, then time to spare for what follows.
    const owner = replica(pool, 'replica-a', 6_000);
    const other = replica(openPool(), 'replica-b').runs;
    await owner.runs.claim('default', 1, Date.now());
    const claimedUntil = (await runRow(pool, id!)).lease_expires_at!;
    const lost: string[] = [];
    owner.leases.start({
      onLost: (runId) => lost.push(runId),
      onError: (error) => {
        throw error;
      },
    });
    await waitFor(
      async () => (await runRow(pool, id!)).lease_expires_at! > claimedUntil,
      'the lease to be renewed',
    );
    owner.leases.stop();

    expect(lost).toEqual([]);
    expect(await other.interruptRunning(endedBy(INTERRUPTED_BY_CRASH), Date.now())).toEqual([]);
    await other.finish(id!, SUCCEEDED, Date.now());
    expect(await runRow(pool, id!)).toMatchObject({ status: 'running', output: null });
    await owner.runs.finish(id!, SUCCEEDED, Date.now());
    expect(await runRow(pool, id!)).toMatchObject({
      status: 'succeeded',
      lease_owner: null,
      output: 'done',
      http_status: 204,
    });
  });

  it('tell the lease keeper when a run was interrupted elsewhere', async () => {
    const { pool, openPool } = await postgres.database();
    const [id] = await seedQueuedRuns(pool, 1);
    const slow = replica(pool, 'slow', 1);
    const other = replica(openPool(), 'other').runs;
    await slow.runs.claim('default', 1, Date.now());
    await waitFor(
      async () =>
        (await other.interruptRunning(endedBy(INTERRUPTED_BY_CRASH), Date.now())).length === 1,
      'the lease to end',
    );

    const lost: string[] = [];
    slow.leases.start({
      onLost: (runId) => lost.push(runId),
      onError: (error) => {
        throw error;
      },
    });
    await waitFor(() => lost.length > 0, 'the lost lease to be noticed');
    slow.leases.stop();

    expect(lost).toEqual([id]);
  });

  it('record queued runs on one replica only, even when two record at once', async () => {
    const { pool, openPool } = await postgres.database();
    const ids = await seedQueuedRuns(pool, 400);
    const replicas = [replica(pool, 'a').runs, replica(openPool(), 'b').runs];

    const recorded = await Promise.all(
      replicas.map(async (runs) => {
        const mine: string[] = [];
        for (;;) {
          const done = await runs.recordQueued('default', 50, Date.now());
          if (done.length === 0) return mine;
          mine.push(...done.map((r) => r.id));
        }
      }),
    );

    const all = recorded.flat();
    expect(all).toHaveLength(ids.length);
    expect(new Set(all).size).toBe(ids.length);
    const left = await pool.query("SELECT 1 FROM runs WHERE status <> 'succeeded'");
    expect(left.rowCount).toBe(0);
  });
});
