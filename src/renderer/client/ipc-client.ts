import type { HookportBridge } from '../../shared/bridge.js';
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
    async call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
      let result: Awaited<ReturnType<HookportBridge['invoke']>>;
      try {
        result = await bridge.invoke(method, input);
      } catch {
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
