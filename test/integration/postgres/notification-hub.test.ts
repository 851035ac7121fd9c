import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  MAX_PAYLOAD_BYTES,
  NOTIFY_CHANNEL,
  NotificationHub,
  type HubSignal,
} from '../../../src/main/store/postgres/notification-hub.js';
import { newDeliveryId } from '../../../src/main/ids.js';
import { usePostgres, type TestDatabase } from '../../support/postgres.js';
import { waitFor } from '../../support/wait.js';

const postgres = usePostgres();

/** Two replicas' hubs on one database; stopped after the test body. */
async function withHubs(
  database: TestDatabase,
  body: (a: NotificationHub, b: NotificationHub, errors: unknown[]) => Promise<void>,
  pollIntervalMs = 60_000,
): Promise<void> {
  const errors: unknown[] = [];
  const hub = (replicaId: string): NotificationHub =>
    new NotificationHub(database.url, database.openPool(), {
      replicaId,
      pollIntervalMs,
      onError: (error) => errors.push(error),
    });
  const a = hub('replica-a');
  const b = hub('replica-b');
  await a.start();
  await b.start();
  try {
    await body(a, b, errors);
  } finally {
    await a.stop();
    await b.stop();
  }
}

/** A plain LISTEN on Hookport's channel, to see the notifications exactly as the server sends them. */
async function rawListener(url: string): Promise<{ payloads: string[]; end: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const payloads: string[] = [];
  client.on('notification', (m) => payloads.push(m.payload ?? ''));
  await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
  return { payloads, end: () => client.end() };
}

const idsIn = (signals: HubSignal[]): string[] =>
  signals.flatMap((s) => (s.kind === 'ids' ? s.ids : []));

describe('NotificationHub', () => {
  it('carries ids to every replica in payloads under 8000 bytes, however many there are', async () => {
    const database = await postgres.database();
    const raw = await rawListener(database.url);
    await withHubs(database, async (a, b) => {
      const heardByB: HubSignal[] = [];
      const runsHeard: HubSignal[] = [];
      b.subscribe('deliveries', (signal) => heardByB.push(signal));
      b.subscribe('runs', (signal) => runsHeard.push(signal));
      const ids = Array.from({ length: 1_500 }, () => newDeliveryId());

      await a.publish('deliveries', ids);

      await waitFor(() => idsIn(heardByB).length === ids.length, 'every id at replica b');
      expect(idsIn(heardByB)).toEqual(ids);
      for (const signal of heardByB) expect(signal).toMatchObject({ origin: 'replica-a' });
      expect(runsHeard).toEqual([]);
      await waitFor(() => raw.payloads.length === heardByB.length, 'the raw notifications');
      expect(raw.payloads.length).toBeGreaterThan(1);
      for (const payload of raw.payloads) {
        expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
        expect(payload).not.toMatch(/body|payload|secret/);
      }
    });
    await raw.end();
  });

  it('reconnects after its connection is cut and tells subscribers to resync', async () => {
    const database = await postgres.database();
    await withHubs(database, async (a, b, errors) => {
      const heard: HubSignal[] = [];
      b.subscribe('runs', (signal) => heard.push(signal));
      const cut = await database.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'hookport listen replica-b' AND datname = current_database()`,
      );
      expect(cut.rowCount).toBe(1);

      await waitFor(() => heard.some((s) => s.kind === 'resync'), 'a resync after the reconnect');
      await a.publish('runs', ['run_after_reconnect']);
      await waitFor(() => idsIn(heard).includes('run_after_reconnect'), 'a notification');
      expect(errors.length).toBeGreaterThan(0);
    });
  });

  it('tells subscribers to poll now and then, with or without notifications', async () => {
    const database = await postgres.database();
    await withHubs(
      database,
      async (_a, b) => {
        let resyncs = 0;
        b.subscribe('automations', (signal) => {
          if (signal.kind === 'resync') resyncs++;
        });
        await waitFor(() => resyncs >= 2, 'two polls');
      },
      50,
    );
  });

  it('ignores what others send on its channel, and refuses what it cannot send', async () => {
    const database = await postgres.database();
    await withHubs(database, async (a, b, errors) => {
      const heard: HubSignal[] = [];
      b.subscribe('webhooks', (signal) => heard.push(signal));
      await database.pool.query(`NOTIFY ${NOTIFY_CHANNEL}, 'not json'`);
      await a.publish('webhooks', ['wh_after_garbage']);

      await waitFor(() => idsIn(heard).includes('wh_after_garbage'), 'the good notification');
      expect(errors.map(String)).toContain(
        `Error: ignored a notification on "${NOTIFY_CHANNEL}" that is not Hookport's`,
      );
      await expect(a.publish('webhooks', ['x'.repeat(8_000)])).rejects.toThrow(
        /does not fit in a notification/,
      );
      await expect(a.publish('Not A Topic', ['x'])).rejects.toThrow(/is not a topic name/);
    });
  });
});
