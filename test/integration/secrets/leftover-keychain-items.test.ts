import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * Keychain items outlive the data dir that made them (`rm -rf ~/.hookport` leaves them behind),
 * and every relay on the machine shares one keychain. A new relay must neither overwrite such an
 * item nor stop its user from creating a webhook of the same name.
 */
describe('keychain items this relay did not create', () => {
  let keyring: KeyringSession;
  let relay: TestRelay;
  beforeAll(async () => {
    keyring = await startKeyringSession();
  });
  afterAll(() => keyring?.stop());
  beforeEach(async () => {
    keyring.clear();
    const earlier = await startTestRelay({ secretBackend: 'keychain' });
    await earlier.createWebhook({ name: 'orders' });
    await earlier.stop();
    relay = await startTestRelay({ secretBackend: 'keychain' });
  });
  afterEach(() => relay.stop());

  const lookup = (name: string): string =>
    keyring.secretTool(['lookup', 'service', 'hookport', 'username', `default/${name}`]).stdout;

  it('leave a new webhook of the same name its own secret under the next free name', async () => {
    const leftover = lookup('webhook-orders');
    expect(leftover).not.toBe('');
    const created = await relay.createWebhook({ name: 'orders' });
    expect(created.webhook.secretName).toBe('webhook-orders-2');
    expect(created.secret).not.toBeNull();
    expect(lookup('webhook-orders-2')).toBe(created.secret);
    expect(lookup('webhook-orders')).toBe(leftover);
    expect((await postDelivery(created.ingressUrl, '{}', bearer(created.secret))).status).toBe(202);
    expect((await postDelivery(created.ingressUrl, '{}', bearer(leftover))).status).toBe(401);
  });

  it('refuse a secret name typed for a webhook, naming the field and the keychain item', async () => {
    const refused = await relay.callError('webhooks.create', {
      name: 'invoices',
      secretName: 'webhook-orders',
    });
    expect(refused).toMatchObject({
      code: 'conflict',
      path: 'secretName',
      message: expect.stringMatching(
        /keychain already holds a secret "default\/webhook-orders"/,
      ) as unknown,
    });
    expect((await relay.call('webhooks.list', {})).items).toEqual([]);
    expect((await relay.call('secrets.list', {})).items).toEqual([]);
  });
});
