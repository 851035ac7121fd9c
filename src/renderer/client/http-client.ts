import { contractRequest, contractResponse } from '../../shared/contract/http-request.js';
import { relayEventSchema, type RelayEvent } from '../../shared/contract/events.js';
import type { MethodInput, MethodName, MethodOutput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import type { BrowserSession, ContractClient } from './contract-client.js';

/** Every event type the contract has: server-sent events arrive under their type's name. */
const EVENT_TYPES: RelayEvent['type'][] = relayEventSchema.options.map(
  (option) => option.shape.type.value,
);

const STREAM_RETRY_MS = 2_000;

async function send(
  method: string,
  path: string,
  body: string | undefined,
  signal?: AbortSignal,
): Promise<Response> {
  try {
    return await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('unavailable', 'The relay does not answer. Is `hookport serve` running?');
  }
}

/** The browser's transport: the admin listener's HTTP API (same origin, session cookie). */
export function createHttpClient(): ContractClient {
  const session: BrowserSession = {
    async signIn(token) {
      const response = await send('POST', '/api/session', JSON.stringify({ token }));
      if (!response.ok) throw ApiError.fromBody(await response.json(), response.status);
    },
    async signOut() {
      await send('DELETE', '/api/session', undefined);
    },
  };

  const streamListeners = new Set<(open: boolean) => void>();
  const streamChanged = (open: boolean): void => {
    for (const listener of streamListeners) listener(open);
  };

  return {
    transport: 'http',
    session,
    watchStream(listener) {
      streamListeners.add(listener);
      return () => streamListeners.delete(listener);
    },
    async call<M extends MethodName>(
      method: M,
      input: MethodInput<M>,
      options: { signal?: AbortSignal } = {},
    ): Promise<MethodOutput<M>> {
      const request = contractRequest(method, input);
      const response = await send(
        request.method,
        request.pathAndQuery,
        request.body,
        options.signal,
      );
      return contractResponse(method, response.status, await response.text());
    },
    subscribe(listener) {
      const forward = (message: MessageEvent<string>): void => {
        const parsed = relayEventSchema.safeParse(JSON.parse(message.data));
        if (parsed.success) listener(parsed.data);
      };
      let source: EventSource;
      let retry: ReturnType<typeof setTimeout> | undefined;
      // EventSource reconnects by itself after a dropped connection, but gives up for good on
      // an answer that is not a stream (a relay half-started): then a new one is opened.
      const open = (): void => {
        source = new EventSource('/api/events');
        for (const type of EVENT_TYPES) source.addEventListener(type, forward);
        source.addEventListener('open', () => streamChanged(true));
        source.addEventListener('error', () => {
          streamChanged(false);
          if (source.readyState === EventSource.CLOSED) retry = setTimeout(open, STREAM_RETRY_MS);
        });
      };
      open();
      return () => {
        clearTimeout(retry);
        source.close();
      };
    },
  };
}
