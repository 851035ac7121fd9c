import { ipcInvokeChannel, type BridgeResult } from '../../src/shared/bridge.js';
import type { MethodName } from '../../src/shared/contract/index.js';
import type { IpcMainLike } from '../../src/main/ipc/ipc-transport.js';

type Listener = Parameters<IpcMainLike['handle']>[1];
export type IpcMainInvokeEvent = Parameters<Listener>[0];

/** Electron's ipcMain is a boundary we do not own: this stand-in records handlers and invokes them. */
export class IpcMainStandIn implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(method: MethodName, ...args: unknown[]): Promise<BridgeResult> {
    const handler = this.handlers.get(ipcInvokeChannel(method));
    if (!handler) throw new Error(`no handler for ${method}`);
    return handler({} as IpcMainInvokeEvent, ...args);
  }
}
