import type { Logger } from '../log.js';
import type { AutomationIndex } from '../automations/automation-index.js';
import type { RunDispatcher } from '../runs/dispatcher.js';
import type { AttemptsRepository } from '../store/attempts.js';
import type { AutomationsRepository } from '../store/automations.js';
import type { DeliveryScans } from '../store/scans.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import type { ExecutorsRepository } from '../store/executors.js';
import type { RunsRepository } from '../store/runs.js';
import type { ServiceDeps } from './deps.js';

/** What the automation, run, replay and executor handlers need beyond the common service deps. */
export interface AutomationServiceDeps {
  automations: AutomationsRepository;
  /** Reloaded after every automation write, so the accept path plans with what was saved. */
  automationIndex: AutomationIndex;
  runs: RunsRepository;
  executors: ExecutorsRepository;
  /** Replays are written like deliveries: one transaction with their runs. */
  writer: Pick<DeliveryWriter, 'accept' | 'settled'>;
  dispatcher: Pick<RunDispatcher, 'wake' | 'liveOutput'>;
  /** Replays get the relay's one line per delivery, as deliveries do. */
  log: Logger;
  /** Forward attempts and `hookport forward` places (the tester's loop). */
  attempts: AttemptsRepository;
  /** Reads over Accepted deliveries: forward backlogs, filter lab, field autocomplete. */
  scans: DeliveryScans;
  /** How long one forward may take in all; tests shorten it. */
  forwardTimeoutMs?: number;
  /** Resolves once every change announced so far is in every live relay's caches. */
  peersSettled: () => Promise<void>;
}

export type FullServiceDeps = ServiceDeps & AutomationServiceDeps;
