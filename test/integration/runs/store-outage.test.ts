import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEDUPE_WINDOW_MS } from '../../../src/main/ingress/limits.js';
import { openPostgresStore } from '../../../src/main/store/postgres/postgres-store.js';
import {
  createAutomation,
  setExecutor,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

/** Short, so that the run's lease ends during the outage: its outcome must still be written. */
const LEASE_MS = 1_500;

interface Health {
  status: number;
  body: {
    ok: boolean;
    store: string;
    error?: { code: string; reason: string; message: string; since: string };
  };
}

const healthOf = async (relay: TestRelay): Promise<Health> => {
  const response = await fetch(`${relay.ingressUrl}/healthz`);
  return { status: response.status, body: (await response.json()) as Health['body'] };
};

const count = (lines: string[], pattern: RegExp): number =>
  lines.filter((line) => pattern.test(line)).length;

describe('a PostgreSQL outage while a command run’s program ends', () => {
  let cluster: PostgresCluster;
  let relay: TestRelay | null = null;
  let out: string;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    await cluster.stop();
  });
  afterEach(async () => {
    writeFileSync(join(out, 'go'), ''); // lets the program end if the test failed before
    await relay?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  // A crash, its recovery and the relay's reconnect take several seconds on a loaded machine.
  it(
    'ends the run succeeded with its output once the database is back; /healthz is 503 during, 200 after',
    { timeout: 120_000 },
    async () => {
      const url = await cluster.createDatabase();
      relay = await startTestRelay({
        openStore: ({ log }) =>
          openPostgresStore(url, {
            masterKey: 'b2'.repeat(32),
            dedupeWindowMs: DEDUPE_WINDOW_MS,
            leaseMs: LEASE_MS,
            log,
          }),
      });
      const started = relay;
      out = tempDir('hookport-outage-');
      const latch = join(out, 'go');
      const created = await started.createWebhook({ name: 'deploys' });
      await createAutomation(started, {
        name: 'deploy',
        triggers: [webhookTrigger([created.webhook.uid])],
      });
      // The program says it started (a file), waits for the test's latch (a file), prints, exits 0.
      const running = join(out, 'started');
      await setExecutor(started, {
        kind: 'command',
        command: '/bin/sh',
        args: [
          '-c',
          'touch "$2"; while [ ! -e "$1" ]; do sleep 0.05; done; echo "deployed"; cat event-payload.json',
          'sh',
          latch,
          running,
        ],
        timeoutSeconds: 120,
        concurrency: 1,
        shell: false,
      });
      expect(await healthOf(started)).toEqual({
        status: 200,
        body: { ok: true, store: 'postgres' },
      });

      const sent = await postDelivery(
        created.ingressUrl,
        '{"release":"v42"}',
        bearer(created.secret),
      );
      expect(sent.status).toBe(202);
      const [runId] = (await getDelivery(started, sent.body.delivery_id!)).runIds;
      await waitForRun(started, runId!, ['running']);
      await waitFor(() => existsSync(running), 'the program to start');

      await cluster.crash();
      const down = await waitFor(async () => {
        const health = await healthOf(started);
        return health.status === 503 ? health : null;
      }, '/healthz to answer 503');
      expect(down.body).toMatchObject({
        ok: false,
        store: 'postgres',
        error: { code: 'store_unavailable', reason: 'unreachable' },
      });
      // No internals: neither the database's address nor the driver's message.
      expect(JSON.stringify(down.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|5432|postgres:\/\//);

      // The program ends while the database is down: its outcome waits in memory.
      writeFileSync(latch, '');
      await waitFor(
        () => count(started.logs, new RegExp(`could not record ${runId!} \\(finish\\)`)) > 0,
        'the outcome to wait for the store',
      );
      // Down long enough for the run's lease to end (twice its length, by the relay's own account).
      await waitFor(async () => {
        const { body } = await healthOf(started);
        const since = body.error ? Date.parse(body.error.since) : Date.now();
        return Date.now() - since > 2 * LEASE_MS;
      }, 'the lease to lapse');
      expect((await healthOf(started)).status).toBe(503);

      await cluster.restart();
      const run = await waitForRun(started, runId!, ['succeeded', 'failed', 'interrupted'], 20_000);
      expect(run).toMatchObject({ status: 'succeeded', exitCode: 0, error: null });
      expect(run.output).toBe('deployed\n{"release":"v42"}');
      expect(started.logs.join('\n')).toMatch(
        new RegExp(`${runId!} succeeded \\(command, .*recorded once the store answered`),
      );
      await waitFor(async () => (await healthOf(started)).status === 200, '/healthz to answer 200');
      expect(await healthOf(started)).toEqual({
        status: 200,
        body: { ok: true, store: 'postgres' },
      });
    },
  );
});
