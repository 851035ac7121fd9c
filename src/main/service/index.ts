import { alarmHandlers } from './alarms.js';
import type { FullServiceDeps } from './automation-deps.js';
import { automationHandlers } from './automations.js';
import type { ServiceHandlers } from './handlers.js';
import { definitionHandlers } from './definitions.js';
import { deliveryHandlers } from './deliveries.js';
import { executorHandlers } from './executors.js';
import { filterLabHandlers } from './filter-lab.js';
import { forwardingHandlers } from './forwarding.js';
import { refusalHandlers } from './refusals.js';
import { relayHandlers } from './relay.js';
import { replayHandlers } from './replay.js';
import { runHandlers } from './runs.js';
import { secretHandlers } from './secrets.js';
import { testFilterHandlers } from './test-filter.js';
import { tokenHandlers } from './tokens.js';
import { webhookHandlers } from './webhooks.js';

export function createManagementService(deps: FullServiceDeps): ServiceHandlers {
  return {
    ...webhookHandlers(deps),
    ...deliveryHandlers(deps),
    ...tokenHandlers(deps),
    ...relayHandlers(deps),
    ...refusalHandlers(deps),
    ...alarmHandlers(deps),
    ...automationHandlers(deps),
    ...testFilterHandlers(deps),
    ...runHandlers(deps),
    ...replayHandlers(deps),
    ...executorHandlers(deps),
    ...secretHandlers(deps),
    ...definitionHandlers(deps),
    ...forwardingHandlers(deps),
    ...filterLabHandlers(deps),
  } satisfies ServiceHandlers;
}

export type { ServiceDeps } from './deps.js';
export type { AutomationServiceDeps, FullServiceDeps } from './automation-deps.js';
export type { Caller, ServiceHandlers } from './handlers.js';
