import type { IpcMainInvokeEvent } from 'electron';
import { ipcInvokeChannel, type BridgeResult } from '../../shared/bridge.js';
import { methodNames } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { describeError, type Logger } from '../log.js';
import { dispatch } from '../service/dispatch.js';
import type { Caller, ServiceHandlers } from '../service/handlers.js';

/** The part of Electron's ipcMain this transport uses (a stand-in implements it in tests). */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<BridgeResult>,
  ): void;
  removeHandler(channel: string): void;
}

export interface IpcTransportOptions {
  caller: Caller;
  /** Only the app's own top frame may call in; anything else (an iframe, a navigated page) is refused. */
  isTrustedSender(event: IpcMainInvokeEvent): boolean;
  log: Logger;
}

/**
 * The IPC transport: one handler per contract method, generated from the contract, holding no
 * logic of its own. Input validation, roles and output filtering are `dispatch`'s, as over HTTP.
 */
export function registerContractHandlers(
  ipcMain: IpcMainLike,
  service: ServiceHandlers,
  options: IpcTransportOptions,
): () => void {
  for (const name of methodNames) {
    ipcMain.handle(ipcInvokeChannel(name), async (event, ...args) => {
      try {
        if (!options.isTrustedSender(event)) {
          throw new ApiError('forbidden', 'Only the Hookport window may call the relay.');
        }
        if (args.length > 1) throw new ApiError('invalid_input', 'Send one input object.');
        return { ok: true, value: await dispatch(service, name, args[0], options.caller) };
      } catch (error) {
        if (error instanceof ApiError) return { ok: false, error: error.toBody().error };
        options.log.error(`[ipc] ${name}: ${describeError(error)}`);
        return {
          ok: false,
          error: new ApiError(
            'internal',
            'The relay hit an internal error; the log has the details.',
          ).toBody().error,
        };
      }
    });
  }
  return () => {
    for (const name of methodNames) ipcMain.removeHandler(ipcInvokeChannel(name));
  };
}
