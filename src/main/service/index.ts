import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { deliveryHandlers } from './deliveries.js';
import { relayHandlers } from './relay.js';
import { tokenHandlers } from './tokens.js';
import { webhookHandlers } from './webhooks.js';

export function createManagementService(deps: ServiceDeps): ServiceHandlers {
  return {
    ...webhookHandlers(deps),
    ...deliveryHandlers(deps),
    ...tokenHandlers(deps),
    ...relayHandlers(deps),
  } satisfies ServiceHandlers;
}

export type { ServiceDeps } from './deps.js';
export type { Caller, ServiceHandlers } from './handlers.js';
