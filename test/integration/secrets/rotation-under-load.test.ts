import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

interface Outcome {
  which: 'old' | 'new';
  startedAt: number;
  status: number;
}

// On the keychain the new value takes a D-Bus round trip to store: the window this test watches.
describe.each(['file', 'keychain'] as const)(
  'rotating a team secret while deliveries arrive (%s backend)',
  (backend) => {
    let keyring: KeyringSession | null = null;
    let relay: TestRelay;
    beforeAll(async () => {
      if (backend === 'keychain') keyring = await startKeyringSession();
    });
    afterAll(() => keyring?.stop());
    beforeEach(async () => {
      // Raised only so this test measures rotation, not the per-minute delivery limit.
      relay = await startTestRelay({
        secretBackend: backend,
        limits: { deliveriesPerMinute: 100_000 },
      });
    });
    afterEach(() => relay.stop());

    it('accepts no old value and refuses no new value once rotate has returned', async () => {
      const created = await relay.call('secrets.create', { name: 'busy' });
      const hook = await relay.createWebhook({ name: 'busy-hook', secretName: 'busy' });
      const old = created.value;
      let next: string | null = null;
      let rotatedAt = Infinity;
      const outcomes: Outcome[] = [];
      let n = 0;

      const sender = async (): Promise<void> => {
        // Old values stop after rotation plus a few attempts: the failed-auth budget is 20.
        let oldAfterRotation = 0;
        while (oldAfterRotation < 3) {
          const useNew = next !== null && n % 2 === 0;
          const which = useNew ? 'new' : 'old';
          const startedAt = performance.now();
          if (!useNew && startedAt > rotatedAt) oldAfterRotation++;
          const sent = await postDelivery(
            hook.ingressUrl,
            `{"n":${n++}}`,
            bearer(useNew ? next! : old),
          );
          outcomes.push({ which, startedAt, status: sent.status });
        }
      };
      const senders = Promise.all([sender(), sender(), sender(), sender()]);
      // Rotate once the senders are under way, whatever the machine's speed.
      await waitFor(() => outcomes.length >= 20, 'the senders to be under way');
      const rotated = await relay.call('secrets.rotate', { name: 'busy' });
      rotatedAt = performance.now();
      next = rotated.value;
      await senders;

      const before = outcomes.filter((o) => o.startedAt < rotatedAt && o.which === 'old');
      const after = outcomes.filter((o) => o.startedAt > rotatedAt);
      expect(before.length).toBeGreaterThan(0);
      expect(after.filter((o) => o.which === 'old').map((o) => o.status)).toEqual(
        after.filter((o) => o.which === 'old').map(() => 401),
      );
      expect(after.filter((o) => o.which === 'new').length).toBeGreaterThan(0);
      expect(after.filter((o) => o.which === 'new').every((o) => o.status === 202)).toBe(true);
      expect(outcomes.every((o) => o.status === 202 || o.status === 401)).toBe(true);
    });
  },
);
