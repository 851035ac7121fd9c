import type { z } from 'zod';
import { alarmMethods } from './alarms.js';
import { automationMethods } from './automations.js';
import { deliveryMethods } from './deliveries.js';
import { executorMethods } from './executors.js';
import { factoryMethods } from './factories.js';
import { filterLabMethods } from './filter-lab.js';
import { forwardingMethods } from './forwarding.js';
import { linkMethods } from './links.js';
import { relayMethods } from './relay.js';
import { refusalMethods } from './refusals.js';
import { replayMethods } from './replay.js';
import { runMethods } from './runs.js';
import { secretMethods } from './secrets.js';
import { tokenMethods } from './tokens.js';
import { tunnelMethods } from './tunnel.js';
import { webhookMethods } from './webhooks.js';

/** Every management call, once. Both transports (HTTP, IPC) and the client are derived from this. */
export const contract = {
  ...factoryMethods,
  ...webhookMethods,
  ...deliveryMethods,
  ...tokenMethods,
  ...relayMethods,
  ...automationMethods,
  ...runMethods,
  ...replayMethods,
  ...refusalMethods,
  ...alarmMethods,
  ...executorMethods,
  ...secretMethods,
  ...forwardingMethods,
  ...filterLabMethods,
  ...tunnelMethods,
  ...linkMethods,
};

export type Contract = typeof contract;
export type MethodName = keyof Contract;
/** What a caller may send (before defaults apply). */
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>;
/** What a handler receives (after validation and defaults). */
export type ParsedInput<M extends MethodName> = z.output<Contract[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Contract[M]['output']>;

export const methodNames = Object.keys(contract) as MethodName[];

export { roleAllows, type Role, type MethodDef } from './define.js';
