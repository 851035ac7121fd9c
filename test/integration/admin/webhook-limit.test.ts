import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** Seed §8, PRODUCT §9: 20 webhooks per factory; deleted ones do not count. */
describe('the webhooks-per-factory limit', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('refuses the 21st webhook with a clear error, and counts only live ones', async () => {
    const uids: string[] = [];
    for (let i = 1; i <= 20; i++)
      uids.push((await relay.createWebhook({ name: `hook-${i}` })).webhook.uid);

    const refused = await relay.api<{ error: { code: string; message: string } }>(
      'POST',
      '/api/webhooks',
      {
        name: 'hook-21',
      },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('limit_reached');
    expect(refused.body.error.message).toMatch(/20 webhooks/);
    expect(refused.body.error.message).toMatch(/Delete one/);

    const factories = await relay.api<{
      items: Array<{ id: string; webhookCount: number; webhookLimit: number }>;
    }>('GET', '/api/factories');
    expect(factories.body.items).toContainEqual(
      expect.objectContaining({ id: 'default', webhookCount: 20, webhookLimit: 20 }),
    );

    await relay.api('DELETE', `/api/webhooks/${uids[0]}`);
    expect((await relay.api('POST', '/api/webhooks', { name: 'hook-21' })).status).toBe(201);
    expect((await relay.api('POST', '/api/webhooks', { name: 'hook-22' })).status).toBe(409);
  });
});
