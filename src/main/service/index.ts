import { contract, type MethodName } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { isUniqueViolation } from '../store/unique-violation.js';
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
  const handlers = conflictsAnswered({
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
  } satisfies ServiceHandlers);
  return settledAcrossRelays(handlers, deps.peersSettled);
}

/**
 * A management write answers once every relay of the store has it in its caches (PRODUCT §16:
 * equal replicas): an automation created through one relay starts runs for a delivery the next
 * moment sent to another. Reads answer at once.
 */
function settledAcrossRelays(
  handlers: ServiceHandlers,
  settled: () => Promise<void>,
): ServiceHandlers {
  const answered: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    const call = handler as (...args: unknown[]) => Promise<unknown>;
    answered[name] =
      contract[name as MethodName].role === 'view'
        ? call
        : async (...args: unknown[]): Promise<unknown> => {
            const result = await call(...args);
            await settled();
            return result;
          };
  }
  return answered as unknown as ServiceHandlers;
}

/**
 * A unique key that refused a write is a 409 the caller can act on, not an internal error: a
 * relay checks a name before writing it, but another relay on the same database may write the
 * same name in between.
 */
function conflictsAnswered(handlers: ServiceHandlers): ServiceHandlers {
  const answered: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    const call = handler as (...args: unknown[]) => Promise<unknown>;
    answered[name] = async (...args: unknown[]): Promise<unknown> => {
      try {
        return await call(...args);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new ApiError(
          'conflict',
          'The same name was just written by another change (another relay of this database, perhaps); reload and try again.',
        );
      }
    };
  }
  return answered as unknown as ServiceHandlers;
}

export type { ServiceDeps } from './deps.js';
export type { AutomationServiceDeps, FullServiceDeps } from './automation-deps.js';
export type { Caller, ServiceHandlers } from './handlers.js';
