import type { RelayEvent } from './contract/events.js';
import type { MethodInput, MethodName } from './contract/index.js';
import type { ApiErrorBody } from './errors.js';

/** Errors cross the IPC boundary as data (Electron flattens thrown errors to a message). */
export type BridgeResult = { ok: true; value: unknown } | { ok: false; error: ApiErrorBody };

/**
 * What the desktop app's preload exposes as `window.hookport`: one typed call into the
 * management contract, a word that a call is no longer wanted, and one event subscription.
 * Nothing else crosses the bridge.
 */
export interface HookportBridge {
  /** `ask`: this call's name (ASK_ID), for `leave`. */
  invoke<M extends MethodName>(
    method: M,
    input: MethodInput<M>,
    ask?: string,
  ): Promise<BridgeResult>;
  /** The call named `ask` is no longer wanted: the relay stops a long read of it, or never begins it. */
  leave(ask: string): void;
  subscribe(listener: (event: RelayEvent) => void): () => void;
}

export const BRIDGE_GLOBAL = 'hookport';
/** One IPC channel per contract method: `hookport:invoke:<method>`. */
export const ipcInvokeChannel = (method: MethodName): string => `hookport:invoke:${method}`;
export const IPC_EVENT_CHANNEL = 'hookport:event';
export const IPC_LEAVE_CHANNEL = 'hookport:leave';
/** A call's name, made at random by the page: one page's names never meet another's. */
export const ASK_ID = /^ask_[0-9a-z]{12,40}$/;
