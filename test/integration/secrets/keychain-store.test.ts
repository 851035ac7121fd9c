import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../../src/main/secrets/keychain-store.js';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';

describe('the OS keychain backend (a real gnome-keyring)', () => {
  let keyring: KeyringSession;
  const store = new KeychainSecretStore();
  beforeAll(async () => {
    keyring = await startKeyringSession();
  });
  afterAll(() => keyring?.stop());

  it('stores a value as service "hookport", account "<factory>/<name>", visible to secret-tool', async () => {
    await store.set('default/webhook-orders', 'kc-value-1');
    const lookup = keyring.secretTool([
      'lookup',
      'service',
      'hookport',
      'username',
      'default/webhook-orders',
    ]);
    expect(lookup).toEqual({ status: 0, stdout: 'kc-value-1' });
    expect(await store.get('default/webhook-orders')).toBe('kc-value-1');
  });

  it('overwrites on set and forgets on delete', async () => {
    await store.set('default/rotating', 'first');
    await store.set('default/rotating', 'second');
    expect(await store.get('default/rotating')).toBe('second');
    await store.delete('default/rotating');
    expect(await store.get('default/rotating')).toBeNull();
    expect(
      keyring.secretTool(['lookup', 'service', 'hookport', 'username', 'default/rotating']).stdout,
    ).toBe('');
  });

  it('answers null for an account it never held, and deleting it is harmless', async () => {
    expect(await store.get('default/never')).toBeNull();
    await expect(store.delete('default/never')).resolves.toBeUndefined();
  });

  it('keeps non-ASCII and long values exactly', async () => {
    const value = `whsec_${'é€😀'.repeat(50)}${'x'.repeat(3000)}`;
    await store.set('default/unicode', value);
    expect(await store.get('default/unicode')).toBe(value);
  });
});
