import { describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/main/ids.js';
import { INTERRUPTED_BY_CRASH } from '../../../src/main/runs/interrupted.js';
import type { PgPool } from '../../../src/main/store/postgres/pool.js';
import {
  createPostgresRunsRepository,
  type RunLeases,
} from '../../../src/main/store/postgres/runs-repo.js';
import { createRunsRepository } from '../../../src/main/store/sqlite/runs-repo.js';
import type { RunRecord } from '../../../src/main/store/runs.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import type { RunsRepository } from '../../../src/main/store/runs.js';
import type { Db } from '../../../src/main/store/sqlite/db.js';
import { useContractStores, type ContractDatabase } from '../../support/store-contract.js';
import { accepted, freshEpoch, seedFactory } from '../../support/store-seeds.js';
import { waitFor } from '../../support/wait.js';

const stores = useContractStores();
let T0 = 0;
const SUCCEEDED = { status: 'succeeded', exitCode: 0, output: 'done', error: null } as const;

interface Replica {
  runs: RunsRepository;
  /** PostgreSQL only: SQLite has one relay and no leases. */
  leases: RunLeases | null;
}

let replicas = 0;
const makers = (leaseMs: number) => ({
  sqlite: (db: Db): Replica => ({ runs: asyncRepository(createRunsRepository(db)), leases: null }),
  postgres: (pool: PgPool): Replica =>
    createPostgresRunsRepository(pool, { replicaId: `replica-${++replicas}`, leaseMs }),
});

/** A factory with two automations; `count` deliveries, each queuing a run of both. */
async function seedRuns(db: ContractDatabase, count: number): Promise<string[]> {
  await seedFactory(db, {
    webhooks: [{ uid: 'wh_runs', name: 'runs' }],
    automations: [
      { id: 'aut_a', name: 'Alpha' },
      { id: 'aut_b', name: 'Beta' },
    ],
  });
  const { outcomes } = await db.commit(
    Array.from({ length: count }, (_, i) =>
      accepted('wh_runs', T0 + i * 1000, `{"i":${i}}`, {
        eventType: 'push',
        automations: ['aut_a', 'aut_b'],
      }),
    ),
  );
  return outcomes.flatMap((o) => (o.label === 'Accepted' ? o.runIds : [])).sort();
}

const ids = (runs: RunRecord[]) => runs.map((r) => r.id);

describe.each(stores)('runs on $kind', (store) => {
  it('lists runs newest first with their automation, webhook and re-runs', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const runIds = await seedRuns(db, 4);
    const { runs } = db.repository(makers(60_000));

    const first = (await runs.get(runIds[0]!))!;
    expect(first).toMatchObject({
      automationId: 'aut_a',
      automationName: 'Alpha',
      factoryId: 'default',
      webhookUid: 'wh_runs',
      webhookName: 'runs',
      status: 'queued',
      input: expect.stringContaining('PROMPT for') as string,
      createdAt: T0,
      startedAt: null,
      finishedAt: null,
      rerunOf: null,
      reruns: [],
      httpStatus: null,
      process: null,
    });
    const rerun = { ...newRun(first), id: newRunId(T0 + 60_000), rerunOf: first.id };
    await runs.insert(rerun);
    expect((await runs.get(first.id))!.reruns).toEqual([rerun.id]);
    expect(await runs.get('run_NOPE')).toBeNull();

    const all = [...runIds, rerun.id].sort().reverse();
    const seen: string[] = [];
    let before: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof runs.page>> = await runs.page({
        automation: null,
        status: null,
        before,
        limit: 3,
      });
      seen.push(...ids(page.items));
      before = page.nextBefore;
    } while (before);
    expect(seen).toEqual(all);
    const onlyB = await runs.page({
      automation: 'aut_b',
      status: 'queued',
      before: null,
      limit: 50,
    });
    expect(ids(onlyB.items)).toEqual(
      all.filter((id) => id !== rerun.id).filter((_, i) => i % 2 === 0),
    );
    expect(await runs.countSince('aut_a', T0 + 2000)).toBe(3);
    expect(await runs.eventTypeOf(first.deliveryId)).toBe('push');
    expect((await runs.payloadOf(first.deliveryId))?.toString()).toBe('{"i":0}');
    expect(await runs.factoriesWithQueuedRuns()).toEqual(['default']);
  });

  it('claims the oldest queued runs, and never hands one run to two replicas', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const runIds = await seedRuns(db, 20);
    const one = db.repository(makers(60_000)).runs;
    const two = db.replicaRepository(makers(60_000)).runs;

    const first = await one.claim('default', 3, T0 + 5);
    expect(ids(first)).toEqual(runIds.slice(0, 3));
    expect(first.every((r) => r.status === 'running' && r.startedAt === T0 + 5)).toBe(true);

    const claimed = await Promise.all(
      [one, two].map(async (runs) => {
        const mine: string[] = [];
        for (let batch = await runs.claim('default', 4, T0); batch.length > 0;) {
          mine.push(...ids(batch));
          batch = await runs.claim('default', 4, T0);
        }
        return mine;
      }),
    );
    const all = [...ids(first), ...claimed.flat()];
    expect(all.sort()).toEqual(runIds);
    expect(new Set(all).size).toBe(runIds.length);
  });

  it('records, finishes and fails runs as the executors and automations do', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const runIds = await seedRuns(db, 3);
    const { runs } = db.repository(makers(60_000));

    const recorded = await runs.recordQueued('default', 2, T0 + 10);
    expect(recorded.map((r) => r.id)).toEqual(runIds.slice(0, 2));
    expect(await runs.get(runIds[0]!)).toMatchObject({
      status: 'succeeded',
      startedAt: T0 + 10,
      finishedAt: T0 + 10,
    });

    const [running] = await runs.claim('default', 1, T0 + 20);
    await runs.recordProcess(running!.id, { group: 4242, started: 'Tue Mar  3 10:00:00 2026' });
    await runs.finish(running!.id, { ...SUCCEEDED, httpStatus: 204 }, T0 + 30);
    expect(await runs.get(running!.id)).toMatchObject({
      status: 'succeeded',
      finishedAt: T0 + 30,
      exitCode: 0,
      output: 'done',
      httpStatus: 204,
      process: { group: 4242, started: 'Tue Mar  3 10:00:00 2026' },
    });

    const failed = await runs.failQueuedOf('aut_b', 'automation deleted', T0 + 40);
    const queuedOfB = runIds.slice(3).filter((_, i) => i % 2 === 0);
    expect(failed.map((r) => [r.id, r.status])).toEqual(queuedOfB.map((id) => [id, 'failed']));
    expect(await runs.get(queuedOfB[0]!)).toMatchObject({
      status: 'failed',
      error: 'automation deleted',
      finishedAt: T0 + 40,
    });

    const candidates = await runs.rerunCandidates(
      { status: 'failed', automation: null, since: null },
      1,
    );
    expect(candidates.total).toBe(queuedOfB.length);
    expect(ids(candidates.items)).toEqual(queuedOfB.slice(0, 1));
    await runs.insertMany([
      {
        ...newRun(candidates.items[0]!),
        id: newRunId(T0 + 90_000),
        rerunOf: candidates.items[0]!.id,
      },
    ]);
    expect(
      (await runs.rerunCandidates({ status: 'failed', automation: null, since: null }, 9)).total,
    ).toBe(queuedOfB.length - 1);
  });

  it('keeps runs that cannot be re-run out of the re-run candidates, and lists them apart', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const runIds = await seedRuns(db, 6);
    const { runs } = db.repository(makers(60_000));
    await runs.failQueuedOf('aut_a', 'boom', T0 + 10);
    await runs.failQueuedOf('aut_b', 'boom', T0 + 10);
    const all = await Promise.all(runIds.map(async (id) => (await runs.get(id))!));
    // The oldest two deliveries lost their payloads; Beta was deleted.
    const pruned = [...new Set(all.map((r) => r.deliveryId))].sort().slice(0, 2);
    for (const deliveryId of pruned) {
      await db.sql('DELETE FROM payloads WHERE delivery_id = $1', [deliveryId]);
    }
    await db.sql(`DELETE FROM automations WHERE id = 'aut_b'`);
    const runnable = all.filter(
      (r) => r.automationId === 'aut_a' && !pruned.includes(r.deliveryId),
    );
    const cannot = all.filter((r) => !runnable.includes(r));

    const filter = { status: 'failed', automation: null, since: null } as const;
    const first = await runs.rerunCandidates(filter, 3);
    expect(ids(first.items)).toEqual(ids(runnable).slice(0, 3));
    expect(first.total).toBe(runnable.length);
    expect(ids(first.cannot)).toEqual(ids(cannot).slice(0, 3));
    expect(first.cannot.map((r) => r.factoryId === null)).toEqual(
      cannot.slice(0, 3).map((r) => r.automationId === 'aut_b'),
    );
    const everything = await runs.rerunCandidates(filter, 100);
    expect(ids(everything.items)).toEqual(ids(runnable));
    expect(ids(everything.cannot)).toEqual(ids(cannot));
  });

  it('interrupts a run whose relay died, once, and never runs it again', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const [runId] = await seedRuns(db, 1);
    // The dying replica's lease is short, and nothing renews it.
    const dying = db.repository(makers(200)).runs;
    const next = db.replicaRepository(makers(60_000)).runs;
    expect(ids(await dying.claim('default', 1, T0))).toContain(runId);

    const interrupted = await waitFor(async () => {
      const ended = await next.interruptRunning(() => INTERRUPTED_BY_CRASH, T0 + 50);
      return ended.length > 0 ? ended : null;
    }, 'the run to be interrupted');

    expect(interrupted.map((r) => [r.id, r.status, r.error])).toEqual([
      [runId, 'interrupted', INTERRUPTED_BY_CRASH],
    ]);
    expect(await next.interruptRunning(() => 'again', T0 + 60)).toEqual([]);
    expect(ids(await next.claim('default', 10, T0 + 70))).not.toContain(runId);
    // The relay that lost it cannot overwrite how it ended.
    await dying.finish(runId!, SUCCEEDED, T0 + 80);
    expect(await next.get(runId!)).toMatchObject({
      status: 'interrupted',
      error: INTERRUPTED_BY_CRASH,
      finishedAt: T0 + 50,
    });
  });

  it('puts a claimed run whose input could not be read back in the queue, to be claimed again', async () => {
    T0 = freshEpoch();
    const db = await store.open();
    const [runId] = await seedRuns(db, 1);
    const { runs } = db.repository(makers(60_000));
    expect(ids(await runs.claim('default', 1, T0))).toContain(runId);
    await runs.recordProcess(runId!, { group: 4242, started: 'Mon Jan  1 00:00:00 2026' });

    await runs.requeue(runId!);
    expect(await runs.get(runId!)).toMatchObject({
      status: 'queued',
      startedAt: null,
      finishedAt: null,
      process: null,
    });
    const again = await runs.claim('default', 10, T0 + 10);
    expect(again.find((r) => r.id === runId)).toMatchObject({
      status: 'running',
      startedAt: T0 + 10,
    });
  });
});

describe('runs across replicas on PostgreSQL', () => {
  const postgres = stores.find((s) => s.kind === 'postgres')!;

  it('leave a live replica’s running runs alone, for as long as it renews their leases', async () => {
    T0 = freshEpoch();
    const db = await postgres.open();
    const [runId] = await seedRuns(db, 1);
    const LEASE_MS = 600;
    const live = db.repository(makers(LEASE_MS));
    const starting = db.replicaRepository(makers(LEASE_MS)).runs;
    const lost: string[] = [];
    live.leases!.start({
      onLost: (id) => lost.push(id),
      onError: (e) => {
        throw e;
      },
    });
    expect(ids(await live.runs.claim('default', 1, T0))).toEqual([runId]);

    // Several lease lengths: the renewals keep it, whatever another replica's start does.
    const until = Date.now() + 4 * LEASE_MS;
    while (Date.now() < until) {
      expect(await starting.interruptRunning(() => INTERRUPTED_BY_CRASH, T0)).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await starting.get(runId!))!.status).toBe('running');

    // The replica stops renewing (it died): after its lease, the run is interrupted.
    live.leases!.stop();
    await waitFor(
      async () => (await starting.interruptRunning(() => INTERRUPTED_BY_CRASH, T0)).length > 0,
      'the lease to end',
    );
    expect(lost).toEqual([]);
    live.leases!.start({
      onLost: (id) => lost.push(id),
      onError: (e) => {
        throw e;
      },
    });
    await waitFor(() => lost.length > 0, 'the replica to learn it lost the run');
    expect(lost).toEqual([runId]);
    live.leases!.stop();
  });

  it('a replica’s own sweep leaves a run whose outcome waits through an outage; once let go, it ends interrupted', async () => {
    T0 = freshEpoch();
    const db = await postgres.open();
    const [waiting, givenUp] = await seedRuns(db, 1);
    // Nothing renews these leases: as in an outage, they lapse.
    const { runs } = db.repository(makers(100));
    expect(ids(await runs.claim('default', 2, T0)).sort()).toEqual([waiting, givenUp].sort());
    await runs.letGo(givenUp!);

    const ended = await waitFor(async () => {
      const found = await runs.interruptRunning(() => INTERRUPTED_BY_CRASH, T0 + 50);
      return found.length > 0 ? found : null;
    }, 'the let-go run’s lease to end');
    expect(ids(ended)).toEqual([givenUp]);
    expect(await runs.interruptRunning(() => INTERRUPTED_BY_CRASH, T0 + 60)).toEqual([]);

    // The store is back: the outcome that waited is written, lease lapsed or not.
    await runs.finish(waiting!, SUCCEEDED, T0 + 70);
    expect(await runs.get(waiting!)).toMatchObject({ status: 'succeeded', output: 'done' });
  });
});

function newRun(run: RunRecord) {
  return {
    id: run.id,
    automationId: run.automationId,
    deliveryId: run.deliveryId,
    webhookUid: run.webhookUid,
    input: run.input,
    createdAt: run.createdAt,
    rerunOf: run.rerunOf,
  };
}
