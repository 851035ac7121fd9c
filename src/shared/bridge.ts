import type { RelayEvent } from './contract/events.js';
import type { MethodInput, MethodName } from './contract/index.js';
import type { ApiErrorBody } from './errors.js';

/** Errors cross the IPC boundary as data (Electron flattens thrown errors to a message). */
export type BridgeResult = { ok: true; value: unknown } | { ok: false; error: ApiErrorBody };

/**
 * What the desktop app's preload exposes as `window.hookport`: one typed call into the
 * management contract and one event subscription. Nothing else crosses the bridge.
 */
export interface HookportBridge {
  invoke<M extends MethodName>(method: M, input: MethodInput<M>): Promise<BridgeResult>;
  subscribe(listener: (event: RelayEvent) => void): () => void;
}

export const BRIDGE_GLOBAL = 'hookport';
/** One IPC channel per contract method: `hookport:invoke:<method>`. */
export const ipcInvokeChannel = (method: MethodName): string => `hookport:invoke:${method}`;
export const IPC_EVENT_CHANNEL = 'hookport:event';
