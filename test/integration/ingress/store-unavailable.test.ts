import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * PRODUCT §3: a 202 only after the commit. When the writer cannot commit (here another process
 * holds the database's write lock past busy_timeout; a writer thread that dies fails its batch
 * the same way), the sender is told to retry, and the operator is told why.
 */
describe('a delivery the store cannot commit', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('is refused with 503 and Retry-After, never a 202, and the error is logged', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'locked-out' });
    const other = new Database(join(relay.dataDir, 'hookport.sqlite'));
    other.prepare('BEGIN IMMEDIATE').run();
    let refused: Awaited<ReturnType<typeof postDelivery>>;
    try {
      refused = await postDelivery(ingressUrl, '{"n":1}', bearer(secret));
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body).toEqual({
      error: {
        code: 'unavailable',
        message: 'The relay could not record this delivery. Retry later.',
      },
    });
    expect(relay.logs).toContainEqual(
      '[store] a delivery batch failed to commit: SqliteError: database is locked',
    );

    const retried = await postDelivery(ingressUrl, '{"n":1}', bearer(secret));
    expect(retried.status).toBe(202);
    const uid = ingressUrl.split('/').pop()!;
    const log = await relay.call('deliveries.list', { uid });
    expect(log.items.map((d) => [d.id, d.label])).toEqual([[retried.body.delivery_id, 'Accepted']]);
  });
});
