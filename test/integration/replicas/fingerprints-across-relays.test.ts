import { describe, expect, it } from 'vitest';
import { clientOf, useTwoRelays } from './two-relays.js';

/**
 * Issue 24: a fingerprint is an HMAC under a key every replica derives from the shared
 * HOOKPORT_MASTER_KEY, so both relays show the same one, for a secret made through either, and
 * after a rotation through the other.
 */
describe('secret fingerprints on two relays of one PostgreSQL', () => {
  const replicas = useTwoRelays();

  it('are the same on both, for a value set through either', async () => {
    const { a, b } = await replicas.start();
    const created = await clientOf(a).call('secrets.create', {
      name: 'shared',
      value: 'the same value on every replica',
    });
    const onB = await clientOf(b).call('secrets.list', {});
    expect(onB.items).toEqual([
      expect.objectContaining({ name: 'shared', fingerprint: created.secret.fingerprint }),
    ]);

    const other = await clientOf(b).call('secrets.create', {
      name: 'other',
      value: 'the same value on every replica',
    });
    // One key for both relays: the same value, the same fingerprint, whoever made it.
    expect(other.secret.fingerprint).toBe(created.secret.fingerprint);

    const rotated = await clientOf(b).call('secrets.rotate', {
      name: 'shared',
      value: 'a new value',
    });
    expect(rotated.secret.fingerprint).not.toBe(created.secret.fingerprint);
    const onA = await clientOf(a).call('secrets.list', {});
    expect(onA.items.find((s) => s.name === 'shared')?.fingerprint).toBe(
      rotated.secret.fingerprint,
    );
  }, 90_000);
});
