import { describe, expect, it } from 'vitest';
import type { RelayEvent } from '../../../src/shared/contract/events.js';
import { getDelivery } from '../../support/deliveries.js';
import { useRelayWithEvents } from '../../support/event-stream.js';
import { bearer, postDelivery } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

type DeliveryEvent = Extract<RelayEvent, { type: 'delivery' }>;

/** Recent deliveries goes live from these events alone: each carries the whole log entry. */
describe('delivery events on the event stream', () => {
  const env = useRelayWithEvents();

  it('carry each new entry exactly as the API reads it, without the payload or a credential', async () => {
    const { relay, stream } = env;
    const { ingressUrl, secret } = await relay.createWebhook({ name: 'watched' });
    const headers = { ...bearer(secret), 'x-service-delivery-id': 'evt-1' };
    const ids = [
      (await postDelivery(ingressUrl, '{"secret-ish":"payload-marker"}', headers)).body,
      (await postDelivery(ingressUrl, '{"secret-ish":"payload-marker"}', headers)).body,
    ].map((body) => body.delivery_id!);
    await postDelivery(ingressUrl, '{}', bearer('wrong-token-marker'));

    const deliveries = (): DeliveryEvent['delivery'][] =>
      stream
        .events()
        .filter((event): event is DeliveryEvent => event.type === 'delivery')
        .map((event) => event.delivery);
    await waitFor(() => deliveries().length === 3, 'three delivery events');

    for (const [index, id] of ids.entries()) {
      // The stream carries the list item: no payload, no request (those are read on demand).
      const {
        payload: _payload,
        method: _method,
        path: _path,
        headers: _headers,
        ...entry
      } = await getDelivery(relay, id);
      expect(deliveries()[index]).toEqual(entry);
    }
    expect(deliveries().map((d) => d.label)).toEqual(['Accepted', 'Duplicate', 'Rejected (auth)']);
    expect(deliveries()[1]!.duplicateOf).toBe(ids[0]);
    // The payload itself never travels: only its one-line summary (§22), as the list shows it.
    expect(stream.raw()).not.toContain('{\\"secret-ish\\":\\"payload-marker\\"}');
    expect(stream.raw()).not.toContain('{"secret-ish":"payload-marker"}');
    expect(deliveries()[0]!.summary).toBe('secret-ish: payload-marker');
    expect(stream.raw()).not.toContain('wrong-token-marker');
    expect(stream.raw()).not.toContain(secret!);
  });
});
