import type { Logger } from '../log.js';
import type { AutomationIndex } from '../automations/automation-index.js';
import type { RunDispatcher } from '../runs/dispatcher.js';
import type { AttemptsRepository } from '../store/attempts-repo.js';
import type { AutomationsRepository } from '../store/automations-repo.js';
import type { DeliveryScans } from '../store/delivery-scans.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import type { ExecutorsRepository } from '../store/executors-repo.js';
import type { RunsRepository } from '../store/runs-repo.js';
import type { Async } from '../store/store.js';
import type { ServiceDeps } from './deps.js';

/** What the automation, run, replay and executor handlers need beyond the common service deps. */
export interface AutomationServiceDeps {
  automations: Async<AutomationsRepository>;
  /** What replays are planned with (reloaded through `onChanged`). */
  automationIndex: AutomationIndex;
  runs: Async<RunsRepository>;
  executors: Async<ExecutorsRepository>;
  /** Replays are written like deliveries: one transaction with their runs. */
  writer: Pick<DeliveryWriter, 'accept' | 'settled'>;
  dispatcher: Pick<RunDispatcher, 'wake' | 'liveOutput'>;
  /** Replays get the relay's one line per delivery, as deliveries do. */
  log: Logger;
  /** Forward attempts and `hookport forward` places (the tester's loop). */
  attempts: Async<AttemptsRepository>;
  /** Reads over Accepted deliveries: forward backlogs, filter lab, field autocomplete. */
  scans: Async<DeliveryScans>;
  /** How long one forward may take in all; tests shorten it. */
  forwardTimeoutMs?: number;
  /** Resolves once every change announced so far is in every live relay's caches. */
  peersSettled: () => Promise<void>;
}

export type FullServiceDeps = ServiceDeps & AutomationServiceDeps;
