import { describe, expect, it } from 'vitest';
import { NotificationHub } from '../../../src/main/store/postgres/notification-hub.js';
import {
  ReplicaRegistry,
  type SharedResource,
} from '../../../src/main/store/postgres/replica-registry.js';
import { usePostgres, type TestDatabase } from '../../support/postgres.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();

interface Replica {
  registry: ReplicaRegistry;
  reloaded: SharedResource[];
  stop(): Promise<void>;
}

async function replica(
  database: TestDatabase,
  id: string,
  reload: (resource: SharedResource) => Promise<void> = () => Promise.resolve(),
  pollIntervalMs = 60_000,
): Promise<Replica> {
  const pool = database.openPool();
  const hub = new NotificationHub(database.url, pool, { replicaId: id, pollIntervalMs });
  await hub.start();
  const registry = new ReplicaRegistry(pool, hub, {
    replicaId: id,
    onError: (error) => {
      throw error;
    },
    ackTimeoutMs: 1_500,
  });
  const reloaded: SharedResource[] = [];
  registry.onChange(async (resource) => {
    await reload(resource);
    reloaded.push(resource);
  });
  await registry.start(Date.now());
  return {
    registry,
    reloaded,
    stop: async () => {
      await registry.stop();
      await hub.stop();
    },
  };
}

describe('ReplicaRegistry', () => {
  it('answers an announcement only after every live replica has reloaded what changed', async () => {
    const database = await postgres.database();
    let release: () => void = () => undefined;
    const slowReload = new Promise<void>((resolve) => (release = resolve));
    let reloadStarted: () => void = () => undefined;
    const reloading = new Promise<void>((resolve) => (reloadStarted = resolve));
    const a = await replica(database, 'replica-a');
    const b = await replica(database, 'replica-b', () => {
      reloadStarted();
      return slowReload;
    });
    try {
      let answered = false;
      const announced = a.registry.announce('secrets', true).then((lagging) => {
        answered = true;
        return lagging;
      });
      await reloading;
      // b has the notification but has not finished reloading: the rotation is not answered.
      expect(answered).toBe(false);
      release();
      expect(await announced).toEqual([]);
      expect(b.reloaded).toEqual(['secrets']);
      // The announcing replica already holds its own change.
      expect(a.reloaded).toEqual([]);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('does not wait for a replica that stopped beating, and names a live one that never applied', async () => {
    const database = await postgres.database();
    const a = await replica(database, 'replica-a');
    await database.pool.query(
      "INSERT INTO replicas (id, started_at, seen_at) VALUES ('killed', 0, now() - interval '1 minute')",
    );
    expect(await a.registry.announce('webhooks', true)).toEqual([]);
    // A live row that never acknowledges (its process hangs): named after the timeout.
    await database.pool.query("INSERT INTO replicas (id, started_at) VALUES ('hung', 0)");
    expect(await a.registry.announce('webhooks', true)).toEqual(['hung']);
    expect(await a.registry.live()).toEqual(['hung']);
    await a.stop();
    const { rows } = await database.pool.query<{ id: string }>(
      'SELECT id FROM replicas ORDER BY id',
    );
    expect(rows.map((r) => r.id)).toEqual(['hung', 'killed']);
  });

  it('reloads everything at a resync, so a replica that missed notifications still catches up', async () => {
    const database = await postgres.database();
    const a = await replica(database, 'replica-a');
    const b = await replica(database, 'replica-b', () => Promise.resolve(), 200);
    try {
      await waitFor(
        () => b.reloaded.includes('secrets') && b.reloaded.includes('webhooks'),
        'a resync reloading every resource',
      );
      const { rows } = await database.pool.query<{ applied: number }>(
        "SELECT applied_seq::int AS applied FROM replicas WHERE id = 'replica-b'",
      );
      expect(rows[0]!.applied).toBe(0);
      await a.registry.announce('settings', false);
      await waitFor(async () => {
        const r = await database.pool.query<{ applied: number }>(
          "SELECT applied_seq::int AS applied FROM replicas WHERE id = 'replica-b'",
        );
        return r.rows[0]!.applied === 1;
      }, 'replica-b to acknowledge change 1');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
