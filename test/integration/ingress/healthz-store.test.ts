import { afterEach, describe, expect, it } from 'vitest';
import { isSqliteStore } from '../../../src/main/store/sqlite/sqlite-store.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

interface Health {
  status: number;
  retryAfter: string | null;
  body: {
    ok: boolean;
    store: string;
    error?: { code: string; reason: string; storeCode: string | null; message: string };
  };
}

const healthOf = async (relay: TestRelay): Promise<Health> => {
  const response = await fetch(`${relay.ingressUrl}/healthz`);
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Health['body'],
  };
};

describe('the ingress /healthz on SQLite', () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('answers 503 with the reason while the store refuses writes, and 200 again once it commits', async () => {
    relay = await startTestRelay();
    const started = relay;
    const store = started.core.store;
    if (!isSqliteStore(store)) throw new Error('this test needs the SQLite store');
    expect(await healthOf(started)).toMatchObject({
      status: 200,
      body: { ok: true, store: 'sqlite' },
    });

    // The relay's own connection refuses writes, as a file on a failing disk does.
    store.db.pragma('query_only = ON');
    const down = await waitFor(async () => {
      const health = await healthOf(started);
      return health.status === 503 ? health : null;
    }, '/healthz to answer 503');
    expect(down).toMatchObject({
      retryAfter: '5',
      body: {
        ok: false,
        store: 'sqlite',
        error: { code: 'store_unavailable', reason: 'refused', storeCode: 'SQLITE_READONLY' },
      },
    });
    expect(down.body.error!.message).toBe(
      'The relay’s store refuses writes. Deliveries are answered 503 until it can commit again.',
    );
    // The admin listener's /healthz says the process is up.
    const admin = await fetch(`${started.adminUrl}/healthz`);
    expect(admin.status).toBe(200);
    expect(started.logs.filter((l) => l.startsWith('[health]'))).toEqual([
      '[health] the store cannot commit (refused, SQLITE_READONLY): /healthz answers 503 until it can',
    ]);

    store.db.pragma('query_only = OFF');
    await waitFor(async () => (await healthOf(started)).status === 200, '/healthz to answer 200');
    expect(await healthOf(started)).toEqual({
      status: 200,
      retryAfter: null,
      body: { ok: true, store: 'sqlite' },
    });
    expect(started.logs).toContain('[health] the store commits again: /healthz answers 200');
  });
});
