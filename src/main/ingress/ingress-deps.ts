import type { HeaderValues } from '../../shared/filter/index.js';
import type { Logger } from '../log.js';
import type { PlannedRun } from '../store/delivery-batch.js';
import type { DeliveryWriter } from '../store/delivery-writer.js';
import type { CommitHealth } from '../store/commit-health.js';
import type { StoreKind } from '../store/store.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { RefusalTally } from './refusal-tally.js';
import type { SignatureScheme } from './schemes/scheme.js';
import type { RateGate } from './rate-gate.js';

/** What a delivery's triggers see besides its payload: its headers and event type (§13). */
export interface DeliverySeen {
  /** By lower-case name; a repeated header is the array of its values. */
  headers: HeaderValues;
  eventType: string | null;
}

/** Decides which automations a delivery starts; runs are written in the accept transaction. */
export type RunPlanner = (
  webhook: WebhookRecord,
  deliveryId: string,
  payload: unknown,
  newRunId: () => string,
  seen: DeliverySeen,
) => PlannedRun[];

export interface IngressDeps {
  webhooks: { get(uid: string): WebhookRecord | undefined };
  secrets: { cachedValue(factoryId: string, name: string): string | undefined };
  schemes: (name: NonNullable<WebhookRecord['signatureScheme']>) => SignatureScheme;
  writer: Pick<DeliveryWriter, 'accept' | 'reject'>;
  planRuns: RunPlanner;
  /** Whether planRuns could start anything for the webhook: only then is the payload evaluated. */
  hasAutomations: (webhookUid: string) => boolean;
  /** The 60/min per webhook: in memory on SQLite, shared through the database on PostgreSQL. */
  rateLimiter: RateGate;
  /**
   * The budget of log entries written before authentication per (webhook, client: an IPv6 /64
   * as one); shared the same way. Named for the 401s it first counted.
   */
  failedAuth: RateGate;
  /** The same entries' budget per webhook, whatever the client: many addresses cannot add up. */
  unauthenticated: RateGate;
  /** Which store the relay runs on, for the health check. */
  storeKind: StoreKind;
  /** Whether the store can commit, for the health check (503 while it cannot); absent: 200. */
  storeHealth?: Pick<CommitHealth, 'check'>;
  trustProxy: boolean;
  now: () => number;
  log: Logger;
  refusals: Pick<RefusalTally, 'note'>;
}
