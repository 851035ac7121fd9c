import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_GLOBAL,
  IPC_EVENT_CHANNEL,
  IPC_LEAVE_CHANNEL,
  ipcInvokeChannel,
  type BridgeResult,
  type HookportBridge,
} from '../shared/bridge.js';
import type { RelayEvent } from '../shared/contract/events.js';
import { methodNames, type MethodName } from '../shared/contract/index.js';

const known = new Set<string>(methodNames);

/**
 * Exactly three functions cross into the page: a call into the management contract, a word that
 * a call is no longer wanted, and an event subscription. ipcRenderer itself never does; the main
 * process validates every argument again.
 */
const bridge: HookportBridge = {
  invoke(method: MethodName, input: unknown, ask?: string): Promise<BridgeResult> {
    if (typeof method !== 'string' || !known.has(method)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'not_found', message: `Unknown method ${String(method)}.` },
      });
    }
    const channel = ipcInvokeChannel(method);
    return (
      ask === undefined
        ? ipcRenderer.invoke(channel, input)
        : ipcRenderer.invoke(channel, input, ask)
    ) as Promise<BridgeResult>;
  },
  leave(ask: string): void {
    ipcRenderer.send(IPC_LEAVE_CHANNEL, ask);
  },
  subscribe(listener: (event: RelayEvent) => void): () => void {
    const forward = (_event: IpcRendererEvent, relayEvent: RelayEvent): void =>
      listener(relayEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
