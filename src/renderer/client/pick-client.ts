import { BRIDGE_GLOBAL, type HookportBridge } from '../../shared/bridge.js';
import type { ContractClient } from './contract-client.js';
import { createHttpClient } from './http-client.js';
import { createIpcClient } from './ipc-client.js';

/** IPC when the desktop preload put its bridge on the page, HTTP to the admin listener otherwise. */
export function pickClient(scope: object = globalThis): ContractClient {
  const bridge = (scope as Record<string, unknown>)[BRIDGE_GLOBAL] as HookportBridge | undefined;
  return bridge ? createIpcClient(bridge) : createHttpClient();
}
