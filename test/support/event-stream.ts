import { request, type IncomingMessage } from 'node:http';
import type { RelayEvent } from '../../src/shared/contract/events.js';
import { afterEach, beforeEach } from 'vitest';
import { startTestRelay, type TestRelay } from './relay.js';
import { waitFor } from './wait.js';

export interface EventStream {
  /** Everything received so far, as sent (to check that nothing secret ever went out). */
  raw(): string;
  events(): RelayEvent[];
  /** Whether the relay ended the stream. */
  ended(): boolean;
  close(): void;
}

/**
 * The admin listener's server-sent events, as the browser UI reads them: with the admin token,
 * or with the credential headers given (another token, or a session cookie).
 */
export async function openEventStream(
  relay: Pick<TestRelay, 'adminUrl' | 'adminToken'>,
  headers: Record<string, string> = { authorization: `Bearer ${relay.adminToken}` },
): Promise<EventStream> {
  let received = '';
  let ended = false;
  const stream = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${relay.adminUrl}/api/events`, { headers });
    req.on('response', resolve).on('error', reject).end();
  });
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (received += chunk));
  stream.on('end', () => (ended = true));
  await waitFor(() => received.includes(': connected'), 'the event stream to open');
  return {
    ended: () => ended,
    raw: () => received,
    events: () =>
      received
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice('data: '.length)) as RelayEvent),
    close: () => stream.destroy(),
  };
}

/**
 * For a describe block: a fresh relay and its event stream for every test, closed after it.
 * Read the fields inside the tests (they are set in beforeEach).
 */
export function useRelayWithEvents(): { relay: TestRelay; stream: EventStream } {
  const shared = {} as { relay: TestRelay; stream: EventStream };
  beforeEach(async () => {
    shared.relay = await startTestRelay();
    shared.stream = await openEventStream(shared.relay);
  });
  afterEach(async () => {
    shared.stream.close();
    await shared.relay.stop();
  });
  return shared;
}
