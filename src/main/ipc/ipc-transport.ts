import type { IpcMainEvent, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import {
  ASK_ID,
  IPC_LEAVE_CHANNEL,
  ipcInvokeChannel,
  type BridgeResult,
} from '../../shared/bridge.js';
import { methodNames } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { describeError, type Logger } from '../log.js';
import { dispatch } from '../service/dispatch.js';
import type { Caller, ServiceHandlers } from '../service/handlers.js';
import { AskerGoneError, closedFirst } from '../store/asker-gone.js';

type LeaveListener = (event: IpcMainEvent, ...args: unknown[]) => void;

/** The part of Electron's ipcMain this transport uses (a stand-in implements it in tests). */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<BridgeResult>,
  ): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: LeaveListener): void;
  removeListener(channel: string, listener: LeaveListener): void;
}

/** Who sent a message: what the check of the sender reads. */
export type IpcSender = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;

export interface IpcTransportOptions {
  caller: Caller;
  /** Only the app's own top frame may call in; anything else (an iframe, a navigated page) is refused. */
  isTrustedSender(event: IpcSender): boolean;
  log: Logger;
}

const askId = z.string().regex(ASK_ID);

/**
 * The IPC transport: one handler per contract method, generated from the contract, holding no
 * logic of its own. Input validation, roles and output filtering are `dispatch`'s, as over HTTP.
 * A call the page names (an ask ID beside its input) can be left (IPC_LEAVE_CHANNEL): its
 * caller's `gone` aborts, as an HTTP request's does when it closes.
 */
export function registerContractHandlers(
  ipcMain: IpcMainLike,
  service: ServiceHandlers,
  options: IpcTransportOptions,
): () => void {
  const asked = new Map<string, AbortController>();
  for (const name of methodNames) {
    ipcMain.handle(ipcInvokeChannel(name), async (event, ...args) => {
      let ask: string | null = null;
      try {
        if (!options.isTrustedSender(event)) {
          throw new ApiError('forbidden', 'Only the Hookport window may call the relay.');
        }
        if (args.length > 2 || (args.length === 2 && !askId.safeParse(args[1]).success)) {
          throw new ApiError('invalid_input', 'Send one input object, and an ask ID if any.');
        }
        const caller = { ...options.caller };
        if (args.length === 2) {
          ask = args[1] as string;
          const gone = new AbortController();
          asked.set(ask, gone);
          caller.gone = gone.signal;
        }
        return { ok: true, value: await dispatch(service, name, args[0], caller) };
      } catch (error) {
        const refused =
          error instanceof ApiError
            ? error
            : error instanceof AskerGoneError
              ? closedFirst()
              : null;
        if (refused) return { ok: false, error: refused.toBody().error };
        options.log.error(`[ipc] ${name}: ${describeError(error)}`);
        return {
          ok: false,
          error: new ApiError(
            'internal',
            'The relay hit an internal error; the log has the details.',
          ).toBody().error,
        };
      } finally {
        if (ask !== null) asked.delete(ask);
      }
    });
  }
  const leave: LeaveListener = (event, ask) => {
    if (!options.isTrustedSender(event)) return;
    const parsed = askId.safeParse(ask);
    if (parsed.success) asked.get(parsed.data)?.abort();
  };
  ipcMain.on(IPC_LEAVE_CHANNEL, leave);
  return () => {
    for (const name of methodNames) ipcMain.removeHandler(ipcInvokeChannel(name));
    ipcMain.removeListener(IPC_LEAVE_CHANNEL, leave);
    for (const gone of asked.values()) gone.abort();
  };
}
