import { describe, expect, it } from 'vitest';
import { useRelayWithEvents } from '../../support/event-stream.js';
import { waitFor } from '../../support/wait.js';

/** The UI's secrets page refreshes from the event stream; the stream must never carry a value. */
describe('secret changes on the event stream', () => {
  const env = useRelayWithEvents();

  const secretEvents = (): unknown[] =>
    env.stream.events().filter((event) => event.type === 'changed' && event.resource === 'secrets');

  it('announces create, rotate and delete, each without the value', async () => {
    const { relay, stream } = env;
    const created = await relay.call('secrets.create', { name: 'watched' });
    await waitFor(() => secretEvents().length === 1, 'the create event');
    const rotated = await relay.call('secrets.rotate', { name: 'watched' });
    await waitFor(() => secretEvents().length === 2, 'the rotate event');
    await relay.call('secrets.delete', { name: 'watched' });
    await waitFor(() => secretEvents().length === 3, 'the delete event');

    expect(secretEvents()).toEqual([
      { type: 'changed', resource: 'secrets' },
      { type: 'changed', resource: 'secrets' },
      { type: 'changed', resource: 'secrets' },
    ]);
    expect(stream.raw()).not.toContain(created.value);
    expect(stream.raw()).not.toContain(rotated.value);
  });

  it('announces nothing for a refused write', async () => {
    const { relay } = env;
    await relay.call('secrets.create', { name: 'once' });
    await waitFor(() => secretEvents().length === 1, 'the create event');
    expect((await relay.callError('secrets.create', { name: 'once' })).code).toBe('conflict');
    expect((await relay.callError('secrets.delete', { name: 'missing' })).code).toBe('not_found');
    // A write that did happen afterwards is the marker that the refusals' events would be in.
    await relay.call('secrets.create', { name: 'marker' });
    await waitFor(() => secretEvents().length >= 2, 'the marker event');
    expect(secretEvents()).toHaveLength(2);
  });
});
