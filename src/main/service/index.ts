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
import { linkHandlers, withLinkFields } from './links.js';
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
    ...linkHandlers(deps),
  } satisfies ServiceHandlers);
  return settledAcrossRelays(withLinkFields(handlers, deps.links), deps.peersSettled);
}

type Call = (...args: unknown[]) => Promise<unknown>;

/** The same handlers, each passed through `wrap` with its method's name. */
function eachHandler(
  handlers: ServiceHandlers,
  wrap: (name: MethodName, call: Call) => Call,
): ServiceHandlers {
  const wrapped: Record<string, Call> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = wrap(name as MethodName, handler as Call);
  }
  return wrapped as unknown as ServiceHandlers;
}

/**
 * A management write answers once every relay of the store has it in its caches (PRODUCT §16:
 * equal replicas): an automation created through one relay starts runs for a delivery the next
 * moment sent to another. Reads answer at once.
 */
const settledAcrossRelays = (handlers: ServiceHandlers, settled: () => Promise<void>) =>
  eachHandler(handlers, (name, call) =>
    contract[name].role === 'view'
      ? call
      : async (...args) => {
          const result = await call(...args);
          await settled();
          return result;
        },
  );

/**
 * A unique key that refused a write is a 409 the caller can act on, not an internal error: a
 * relay checks a name before writing it, but another relay on the same database may write the
 * same name in between.
 */
const conflictsAnswered = (handlers: ServiceHandlers) =>
  eachHandler(handlers, (_name, call) => async (...args) => {
    try {
      return await call(...args);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ApiError(
        'conflict',
        'The same name was just written by another change (another relay of this database, perhaps); reload and try again.',
      );
    }
  });

export type { ServiceDeps } from './deps.js';
export type { AutomationServiceDeps, FullServiceDeps } from './automation-deps.js';
export type { Caller, ServiceHandlers } from './handlers.js';
