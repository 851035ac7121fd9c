import type { BridgeResult, HookportBridge } from '../../shared/bridge.js';
import {
  contract,
  type MethodInput,
  type MethodName,
  type MethodOutput,
} from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import type { ContractClient } from './contract-client.js';

/** The desktop transport: the preload's bridge into Electron main (no admin listener involved). */
export function createIpcClient(bridge: HookportBridge): ContractClient {
  return {
    transport: 'ipc',
    session: null,
    async call<M extends MethodName>(
      method: M,
      input: MethodInput<M>,
      { signal }: { signal?: AbortSignal } = {},
    ): Promise<MethodOutput<M>> {
      signal?.throwIfAborted();
      const ask = signal ? askId() : undefined;
      let result: BridgeResult;
      try {
        const answer = bridge.invoke(method, input, ask);
        result = signal
          ? await leftWhenAborted(answer, signal, () => bridge.leave(ask!))
          : await answer;
      } catch (error) {
        if (signal?.aborted) throw error;
        // No handler in the main process (the relay is stopping or restarting): nothing answered.
        throw new ApiError('unavailable', 'The relay in this window is not answering.');
      }
      if (!result.ok) {
        throw new ApiError(result.error.code, result.error.message, result.error.path);
      }
      return contract[method].output.parse(result.value) as MethodOutput<M>;
    },
    subscribe: (listener) => bridge.subscribe(listener),
  };
}

/** A call's name for `leave` (bridge.ts's ASK_ID): 20 random base-36 digits. */
function askId(): string {
  const digits = [...crypto.getRandomValues(new Uint8Array(20))].map((b) => (b % 36).toString(36));
  return `ask_${digits.join('')}`;
}

/**
 * `answer`, or the abort's reason as soon as `signal` aborts (as `fetch` rejects), the relay
 * told (`leave`) so that it stops the call's long read.
 */
function leftWhenAborted<T>(
  answer: Promise<T>,
  signal: AbortSignal,
  leave: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const left = (): void => {
      leave();
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', left, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', left));
  });
}
