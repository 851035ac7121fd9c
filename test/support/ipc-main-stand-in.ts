import { ipcInvokeChannel, type BridgeResult } from '../../src/shared/bridge.js';
import type { MethodName } from '../../src/shared/contract/index.js';
import type { IpcMainLike } from '../../src/main/ipc/ipc-transport.js';

type Listener = Parameters<IpcMainLike['handle']>[1];
type MessageListener = Parameters<IpcMainLike['on']>[1];
export type IpcMainInvokeEvent = Parameters<Listener>[0];
type IpcMainEvent = Parameters<MessageListener>[0];

/**
 * Electron's ipcMain is a boundary we do not own: this stand-in records handlers and listeners,
 * and invokes or sends to them as ipcRenderer would.
 */
export class IpcMainStandIn implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  readonly listeners = new Map<string, Set<MessageListener>>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  on(channel: string, listener: MessageListener): void {
    const set = this.listeners.get(channel) ?? new Set();
    this.listeners.set(channel, set.add(listener));
  }
  removeListener(channel: string, listener: MessageListener): void {
    this.listeners.get(channel)?.delete(listener);
  }
  invoke(method: MethodName, ...args: unknown[]): Promise<BridgeResult> {
    const handler = this.handlers.get(ipcInvokeChannel(method));
    if (!handler) throw new Error(`no handler for ${method}`);
    return handler({} as IpcMainInvokeEvent, ...args);
  }
  /** ipcRenderer.send: every listener of the channel, as Electron calls them. */
  send(channel: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener({} as IpcMainEvent, ...args);
  }
}
