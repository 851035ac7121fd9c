import { afterEach, describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { getDelivery } from '../../support/deliveries.js';
import { openEventStream, type EventStream } from '../../support/event-stream.js';
import { bearer, postDelivery } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';
import { clientOf, createWebhook, ingressOn, useTwoRelays } from './two-relays.js';

/**
 * PRODUCT §16: live events reach every replica's UI. A browser watching relay A's
 * `GET /api/events` sees what arrives through relay B (the log entry as B's list shows it, and
 * its run), and what is changed through B, without reloading; and the other way round.
 */
describe('live events across two relays', () => {
  const replicas = useTwoRelays();
  const streams: EventStream[] = [];
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.close();
  });

  it("show a delivery posted to one relay, its run and a changed webhook on the other relay's event stream", async () => {
    const { a, b } = await replicas.start();
    const onA = await openEventStream(a);
    const onB = await openEventStream(b);
    streams.push(onA, onB);

    // A webhook created through B: A's list learns it changed.
    const hook = await createWebhook(b, { name: 'watched' });
    await waitFor(
      () => onA.events().some((event) => event.type === 'changed' && event.resource === 'webhooks'),
      "A's stream to say the webhooks changed",
    );
    await createAutomation(clientOf(b), {
      name: 'note-it',
      triggers: [webhookTrigger([hook.webhook.uid])],
    });

    for (const [via, watcher] of [
      [b, onA],
      [a, onB],
    ] as const) {
      const sent = await postDelivery(
        ingressOn(via, hook.ingressUrl),
        JSON.stringify({ via: via.adminUrl }),
        bearer(hook.secret),
      );
      expect(sent.status).toBe(202);
      const id = sent.body.delivery_id!;
      const shown = await waitFor(
        () =>
          watcher.events().find((event) => event.type === 'delivery' && event.delivery.id === id),
        `${id} on the other relay's event stream`,
      );
      const {
        payload: _payload,
        method: _m,
        path: _p,
        headers: _h,
        ...listed
      } = await getDelivery(clientOf(via), id);
      expect(shown).toEqual({ type: 'delivery', delivery: listed });
      const [runId] = listed.runIds;
      await waitFor(
        () =>
          watcher
            .events()
            .some(
              (event) =>
                event.type === 'run' && event.run.id === runId && event.run.deliveryId === id,
            ),
        `run ${runId} on the other relay's event stream`,
      );
    }
    // Nothing secret travels with them.
    for (const stream of [onA, onB]) expect(stream.raw()).not.toContain(hook.secret);
  });
});
