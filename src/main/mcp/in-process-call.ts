import type { MethodName, MethodOutput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { describeError, type Logger } from '../log.js';
import { dispatch } from '../service/dispatch.js';
import { AskerGoneError, closedFirst } from '../store/asker-gone.js';
import type { Caller, ServiceHandlers } from '../service/handlers.js';
import type { ContractCall } from './tool.js';

/**
 * The contract called in process, as the HTTP transport calls it: validation, the caller's role,
 * the handler, the output schema. An unexpected error is logged and answered without its details.
 */
export function inProcessCall(service: ServiceHandlers, caller: Caller, log: Logger): ContractCall {
  return async <M extends MethodName>(name: M, input: unknown) => {
    try {
      return (await dispatch(service, name, input, caller)) as MethodOutput<M>;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // A read stopped because its asker left answers no one, and is not the relay's fault.
      if (error instanceof AskerGoneError) throw closedFirst();
      log.error(`[mcp] ${name}: ${describeError(error)}`);
      throw new ApiError('internal', 'The relay hit an internal error; the log has the details.');
    }
  };
}
