import { describe, expect, it } from 'vitest';
import { clientOf, type ChildRelay } from '../../support/child-relay.js';
import { bearer, postDelivery } from '../../support/relay.js';
import { createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

/**
 * PRODUCT §16: a rotation reaches every replica before the rotate call answers. Both relays have
 * just used the old value (so each holds it in memory); the moment the rotate call through one
 * answers, with no wait, the other refuses the old value and accepts the new one. Then the
 * same the other way round.
 */
describe('a webhook secret rotated through one of two relays', () => {
  const replicas = useTwoRelays();

  it('works on the other relay at once, and the old value fails there at once', async () => {
    const { a, b } = await replicas.start();
    const hook = await createWebhook(a, { name: 'rotating' });
    const post = (relay: ChildRelay, secret: string | null, n: number) =>
      postDelivery(ingressOn(relay, hook.ingressUrl), JSON.stringify({ n }), bearer(secret));

    let current = hook.secret;
    let n = 0;
    for (const [rotateOn, checkOn] of [
      [a, b],
      [b, a],
    ] as const) {
      for (const relay of [a, b]) expect((await post(relay, current, ++n)).status).toBe(202);

      const rotated = await clientOf(rotateOn).call('webhooks.rotate', { uid: hook.webhook.uid });
      const old = current;
      current = rotated.secret;
      expect(current).not.toBe(old);

      const [withOld, withNew] = await Promise.all([
        post(checkOn, old, ++n),
        post(checkOn, current, ++n),
      ]);
      expect(withOld.status).toBe(401);
      expect(withNew.status).toBe(202);
      // And on the relay that rotated it, of course.
      expect((await post(rotateOn, old, ++n)).status).toBe(401);
      expect((await post(rotateOn, current, ++n)).status).toBe(202);
    }
  });
});
