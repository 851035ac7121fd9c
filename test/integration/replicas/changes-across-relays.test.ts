import { describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, type CreatedWebhook } from '../../support/relay.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

const ROUNDS = 5;

/**
 * PRODUCT §16: replicas are equal behind any load balancer, so a management write through one
 * relay holds on every relay once it answers. A sender whose next delivery lands on the other
 * relay gets what was saved: the new automation's run, no run of a disabled one, a 404 from a
 * deleted webhook.
 */
describe('a management write through one relay', () => {
  const replicas = useTwoRelays();

  it('holds on the other relay by the time it answers', async () => {
    const { a, b } = await replicas.start();
    const sendToB = async (hook: CreatedWebhook, n: number) =>
      postDelivery(ingressOn(b, hook.ingressUrl), JSON.stringify({ n }), bearer(hook.secret));

    for (let round = 0; round < ROUNDS; round++) {
      const hook = await createWebhook(a, { name: `hook-${round}` });
      const automation = await createAutomation(clientOf(a), {
        name: `build-${round}`,
        triggers: [webhookTrigger([hook.webhook.uid])],
      });
      const first = await sendToB(hook, 1);
      expect(first.status).toBe(202);
      const planned = await getDelivery(clientOf(b), first.body.delivery_id!);
      expect({ round, runs: planned.runIds.length }).toEqual({ round, runs: 1 });

      const disabled = await clientOf(a).call('automations.update', {
        id: automation.id,
        enabled: false,
      });
      expect(disabled.enabled).toBe(false);
      const second = await sendToB(hook, 2);
      expect(second.status).toBe(202);
      const unplanned = await getDelivery(clientOf(b), second.body.delivery_id!);
      expect({ round, runs: unplanned.runIds.length }).toEqual({ round, runs: 0 });

      await clientOf(a).call('webhooks.delete', { uid: hook.webhook.uid });
      expect((await sendToB(hook, 3)).status).toBe(404);
    }
  });
});
