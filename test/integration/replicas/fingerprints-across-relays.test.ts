import { describe, expect, it } from 'vitest';
import { childApi } from '../../support/child-relay.js';
import { useTwoRelays } from './two-relays.js';

type Secrets = { items: Array<{ name: string; fingerprint: string | null }> };

/**
 * Issue 24: a fingerprint is an HMAC under a key every replica derives from the shared
 * HOOKPORT_MASTER_KEY, so both relays show the same one, for a secret made through either, and
 * after a rotation through the other.
 */
describe('secret fingerprints on two relays of one PostgreSQL', () => {
  const replicas = useTwoRelays();

  it('are the same on both, for a value set through either', async () => {
    const { a, b } = await replicas.start();
    const created = await childApi<{ secret: { fingerprint: string } }>(a, 'POST', '/api/secrets', {
      name: 'shared',
      value: 'the same value on every replica',
    });
    expect(created.status).toBe(201);
    const onB = await childApi<Secrets>(b, 'GET', '/api/secrets');
    expect(onB.body.items).toEqual([
      expect.objectContaining({ name: 'shared', fingerprint: created.body.secret.fingerprint }),
    ]);

    const other = await childApi<{ secret: { fingerprint: string } }>(b, 'POST', '/api/secrets', {
      name: 'other',
      value: 'the same value on every replica',
    });
    // One key for both relays: the same value, the same fingerprint, whoever made it.
    expect(other.body.secret.fingerprint).toBe(created.body.secret.fingerprint);

    const rotated = await childApi<{ secret: { fingerprint: string } }>(
      b,
      'POST',
      '/api/secrets/shared/rotate',
      { value: 'a new value' },
    );
    expect(rotated.body.secret.fingerprint).not.toBe(created.body.secret.fingerprint);
    const onA = await childApi<Secrets>(a, 'GET', '/api/secrets');
    expect(onA.body.items.find((s) => s.name === 'shared')?.fingerprint).toBe(
      rotated.body.secret.fingerprint,
    );
  }, 90_000);
});
