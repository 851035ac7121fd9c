import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  BRIDGE_GLOBAL,
  IPC_EVENT_CHANNEL,
  ipcInvokeChannel,
  type BridgeResult,
  type HookportBridge,
} from '../shared/bridge.js';
import type { RelayEvent } from '../shared/contract/events.js';
import { methodNames, type MethodName } from '../shared/contract/index.js';

const known = new Set<string>(methodNames);

/**
 * Exactly two functions cross into the page: a call into the management contract and an event
 * subscription. ipcRenderer itself never does; the main process validates every argument again.
 */
const bridge: HookportBridge = {
  invoke(method: MethodName, input: unknown): Promise<BridgeResult> {
    if (typeof method !== 'string' || !known.has(method)) {
      return Promise.resolve({
        ok: false,
        error: { code: 'not_found', message: `Unknown method ${String(method)}.` },
      });
    }
    return ipcRenderer.invoke(ipcInvokeChannel(method), input) as Promise<BridgeResult>;
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
