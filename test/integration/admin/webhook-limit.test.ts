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

    const refused = await relay.callError('webhooks.create', { name: 'hook-21' });
    expect(refused.code).toBe('limit_reached');
    expect(refused.message).toMatch(/20 webhooks/);
    expect(refused.message).toMatch(/Delete one/);

    const factories = await relay.call('factories.list', {});
    expect(factories.items).toContainEqual(
      expect.objectContaining({ id: 'default', webhookCount: 20, webhookLimit: 20 }),
    );

    await relay.call('webhooks.delete', { uid: uids[0]! });
    expect((await relay.call('webhooks.create', { name: 'hook-21' })).webhook.name).toBe('hook-21');
    const over = await relay.callError('webhooks.create', { name: 'hook-22' });
    expect(over.code).toBe('limit_reached');
  });
});
