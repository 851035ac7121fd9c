import type { DeliveryLabel } from '../../shared/labels.js';
import type { Db } from './db.js';
import type { DeliveryRecord, IdentitySource } from './deliveries-repo.js';

/** A run to queue if, and only if, the delivery is accepted (not a duplicate). */
export interface PlannedRun {
  id: string;
  automationId: string;
  /** PROMPT.md: the automation prompt followed by the platform envelope. */
  input: string;
}

export interface AcceptItem {
  id: string;
  webhookUid: string;
  receivedAt: number;
  body: Buffer;
  identity: string;
  identitySource: IdentitySource;
  clientAddress: string | null;
  runs: PlannedRun[];
  /** Replays re-evaluate a stored payload on purpose, so they skip the duplicate check. */
  replayOf?: string;
}

export type AcceptOutcome =
  | { label: 'Accepted'; deliveryId: string; runIds: string[] }
  | { label: 'Duplicate'; deliveryId: string; duplicateOf: string };

export type RejectedLabel = Exclude<DeliveryLabel, 'Accepted' | 'Duplicate'>;

export interface RejectionItem {
  id: string;
  webhookUid: string;
  receivedAt: number;
  size: number;
  label: RejectedLabel;
  reason: string;
  clientAddress: string | null;
  /** What the request claimed to be, where that is known without trusting it (metadata only). */
  identity: string | null;
  identitySource: IdentitySource | null;
}

/** What listeners hear once a batch is on disk: the log entry as the API shows it. */
export type CommittedDelivery = DeliveryRecord;

type Pending =
  | {
      kind: 'accept';
      item: AcceptItem;
      resolve: (o: AcceptOutcome) => void;
      reject: (e: unknown) => void;
    }
  | { kind: 'reject'; item: RejectionItem };

export interface DeliveryWriterOptions {
  dedupeWindowMs: number;
  onCommit: (committed: CommittedDelivery[]) => void;
  onError: (error: unknown) => void;
}

/**
 * The one place deliveries, payloads, dedupe keys and runs are written. Requests that arrive
 * together share one transaction (one fsync); each waits for the commit that holds it.
 */
export class DeliveryWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private idleWaiters: Array<() => void> = [];
  private readonly commitBatch: (batch: Pending[]) => {
    outcomes: AcceptOutcome[];
    committed: CommittedDelivery[];
  };

  constructor(
    db: Db,
    private readonly options: DeliveryWriterOptions,
  ) {
    const findKey = db.prepare<[string, string], { delivery_id: string; accepted_at: number }>(
      'SELECT delivery_id, accepted_at FROM dedupe_keys WHERE webhook_uid = ? AND identity = ?',
    );
    const upsertKey = db.prepare(`
      INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at) VALUES (?, ?, ?, ?)
      ON CONFLICT (webhook_uid, identity) DO UPDATE SET delivery_id = excluded.delivery_id, accepted_at = excluded.accepted_at`);
    const insertDelivery = db.prepare(`
      INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source, client_address,
                              reason, duplicate_of, replay_of)
      VALUES (@id, @webhookUid, @label, @size, @receivedAt, @identity, @identitySource, @clientAddress,
              @reason, @duplicateOf, @replayOf)`);
    const insertPayload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
    const insertRun = db.prepare(`
      INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at)
      VALUES (?, ?, ?, ?, 'queued', ?, ?)`);

    const write = (row: DeliveryRecord): DeliveryRecord => {
      insertDelivery.run(row);
      return row;
    };

    const acceptOne = (item: AcceptItem): { outcome: AcceptOutcome; row: DeliveryRecord } => {
      const base = {
        id: item.id,
        webhookUid: item.webhookUid,
        size: item.body.length,
        receivedAt: item.receivedAt,
        identity: item.identity,
        identitySource: item.identitySource,
        clientAddress: item.clientAddress,
        replayOf: item.replayOf ?? null,
      };
      if (!item.replayOf) {
        const previous = findKey.get(item.webhookUid, item.identity);
        if (previous && previous.accepted_at > item.receivedAt - this.options.dedupeWindowMs) {
          const row = write({
            ...base,
            label: 'Duplicate',
            reason: null,
            duplicateOf: previous.delivery_id,
            runIds: [],
          });
          return {
            outcome: { label: 'Duplicate', deliveryId: item.id, duplicateOf: previous.delivery_id },
            row,
          };
        }
        upsertKey.run(item.webhookUid, item.identity, item.id, item.receivedAt);
      }
      const runIds = item.runs.map((r) => r.id);
      const row = write({
        ...base,
        label: 'Accepted',
        reason: item.replayOf
          ? `replay of ${item.replayOf} (duplicate check skipped on purpose)`
          : null,
        duplicateOf: null,
        runIds,
      });
      insertPayload.run(item.id, item.body);
      for (const run of item.runs) {
        insertRun.run(
          run.id,
          run.automationId,
          item.id,
          item.webhookUid,
          run.input,
          item.receivedAt,
        );
      }
      return { outcome: { label: 'Accepted', deliveryId: item.id, runIds }, row };
    };

    this.commitBatch = db.transaction((batch: Pending[]) => {
      const outcomes: AcceptOutcome[] = [];
      const committed: CommittedDelivery[] = [];
      for (const pending of batch) {
        if (pending.kind === 'accept') {
          const { outcome, row } = acceptOne(pending.item);
          outcomes.push(outcome);
          committed.push(row);
        } else {
          committed.push(write({ ...pending.item, duplicateOf: null, replayOf: null, runIds: [] }));
        }
      }
      return { outcomes, committed };
    });
  }

  /** Resolves only after the transaction holding this delivery has committed (fsync'd). */
  accept(item: AcceptItem): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'accept', item, resolve, reject });
      this.schedule();
    });
  }

  /** Rejections carry no promise to the sender, so they ride the next batch. */
  reject(item: RejectionItem): void {
    this.queue.push({ kind: 'reject', item });
    this.schedule();
  }

  /** Resolves once everything queued so far is on disk (used when shutting down). */
  drain(): Promise<void> {
    if (this.queue.length === 0 && !this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request whose body finished reading in this
    // turn of the event loop joins the same transaction.
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) this.commit(batch);
    if (this.queue.length === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const wake of waiters) wake();
    }
  }

  private commit(batch: Pending[]): void {
    let result: { outcomes: AcceptOutcome[]; committed: CommittedDelivery[] };
    try {
      result = this.commitBatch(batch);
    } catch (error) {
      this.options.onError(error);
      for (const pending of batch) if (pending.kind === 'accept') pending.reject(error);
      return;
    }
    let next = 0;
    for (const pending of batch)
      if (pending.kind === 'accept') pending.resolve(result.outcomes[next++]!);
    this.options.onCommit(result.committed);
  }
}
