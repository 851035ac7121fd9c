import { describe, expect, it } from 'vitest';
import { newAttemptId, newDeliveryId } from '../../../src/main/ids.js';
import { createAttemptsRepository } from '../../../src/main/store/sqlite/attempts-repo.js';
import type { AttemptRecord } from '../../../src/main/store/attempts.js';
import { createPostgresAttemptsRepository } from '../../../src/main/store/postgres/attempts-repo.js';
import { asyncRepository } from '../../../src/main/store/store.js';
import { useContractStores } from '../../support/store-contract.js';
import { freshEpoch } from '../../support/store-seeds.js';

const stores = useContractStores();
const URL = 'http://127.0.0.1:9/hook';

function attempt(
  deliveryId: string,
  at: number,
  extra: Partial<AttemptRecord> = {},
): AttemptRecord {
  return {
    id: newAttemptId(at),
    deliveryId,
    webhookUid: 'wh_fwd',
    url: URL,
    at,
    status: 200,
    responseHeaders: [['Content-Type', 'text/plain']],
    responseBody: Buffer.from('ok ✓'),
    bodyTruncated: false,
    durationMs: 12,
    error: null,
    sentBody: null,
    signed: true,
    requestHeaders: [['X-Hub-Signature-256', '[redacted]']],
    forwarder: true,
    delivered: true,
    ...extra,
  };
}

describe.each(stores)('forward attempts on $kind', (store) => {
  it('keeps each attempt as sent and answered, newest first', async () => {
    const t0 = freshEpoch();
    const db = await store.open();
    const attempts = db.repository({
      sqlite: (sqlite) => asyncRepository(createAttemptsRepository(sqlite)),
      postgres: (pool) => createPostgresAttemptsRepository(pool),
    });
    const delivery = newDeliveryId(t0);
    const ok = attempt(delivery, t0 + 1, { forwarder: false });
    const failed = attempt(delivery, t0 + 2, {
      status: null,
      responseHeaders: [],
      responseBody: Buffer.alloc(0),
      bodyTruncated: true,
      error: 'connect ECONNREFUSED',
      sentBody: Buffer.from('{"edited":true}'),
      signed: false,
      forwarder: false,
      delivered: false,
    });
    await attempts.record(ok);
    await attempts.record(failed);

    expect(await attempts.get(ok.id)).toEqual(ok);
    expect(await attempts.get(failed.id)).toEqual(failed);
    expect(await attempts.get('fwd_NOPE')).toBeNull();
    expect(await attempts.ofDelivery(delivery)).toEqual([failed, ok]);
    expect(await attempts.ofDelivery('dlv_NOPE')).toEqual([]);
    // Neither was a delivered forwarder attempt: no place yet.
    expect(await attempts.place('wh_fwd', URL)).toBeNull();
  });

  it('moves a forwarder’s place forward only, per webhook and URL', async () => {
    const t0 = freshEpoch();
    const db = await store.open();
    const attempts = db.repository({
      sqlite: (sqlite) => asyncRepository(createAttemptsRepository(sqlite)),
      postgres: (pool) => createPostgresAttemptsRepository(pool),
    });
    const [older, newer] = [newDeliveryId(t0), newDeliveryId(t0 + 1)];

    await attempts.record(attempt(newer, t0 + 10));
    expect(await attempts.place('wh_fwd', URL)).toBe(newer);
    // A slower forwarder racing on the same URL finishes an older delivery last.
    await attempts.record(attempt(older, t0 + 11));
    expect(await attempts.place('wh_fwd', URL)).toBe(newer);
    // Not delivered (the handler answered 500): the place stays.
    const later = newDeliveryId(t0 + 2);
    await attempts.record(attempt(later, t0 + 12, { status: 500, delivered: false }));
    expect(await attempts.place('wh_fwd', URL)).toBe(newer);
    await attempts.record(attempt(later, t0 + 13));
    expect(await attempts.place('wh_fwd', URL)).toBe(later);
    expect(await attempts.place('wh_fwd', 'http://127.0.0.1:9/other')).toBeNull();
  });
});
