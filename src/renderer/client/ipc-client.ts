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
      const result = await bridge.invoke(method, input);
      if (!result.ok) {
        throw new ApiError(result.error.code, result.error.message, result.error.path);
      }
      return contract[method].output.parse(result.value) as MethodOutput<M>;
    },
    subscribe: (listener) => bridge.subscribe(listener),
  };
}
