import type { Db } from './db.js';
import type {
  AcceptItem,
  BatchItem,
  BatchResult,
  DeliveryBatchStore,
  ItemFailure,
  RequestContext,
} from '../delivery-batch.js';
import {
  acceptedRecord,
  recordsOf,
  rejectedRecord,
  type AcceptDecision,
  type BatchDecisions,
} from '../batch-records.js';
import type { DeliveryRecord } from '../deliveries.js';
import { signatureClaim } from '../signature-claims.js';

export interface BatchStoreOptions {
  dedupeWindowMs: number;
}

/** Writes a batch in one SQLite transaction on this thread (synchronous=FULL: durable at commit). */
export function createSqliteBatchStore(db: Db, options: BatchStoreOptions): DeliveryBatchStore {
  const commitBatch = sqliteBatchCommitter(db, options);
  return { commit: (batch) => Promise.resolve(commitBatch(batch)) };
}

/** SQLite's codes for a database that cannot commit now, whatever the batch holds. */
const UNAVAILABLE =
  /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|NOMEM|INTERRUPT|PROTOCOL)/;

/**
 * Some item's value may be at fault (a constraint, a type a STRICT column refuses), so the batch is
 * worth writing one item at a time; when the file is locked, full or failing, that would only
 * multiply the failures (and a busy file's waits).
 */
function refusedForItsData(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return !(typeof code === 'string' && UNAVAILABLE.test(code));
}

/** The transaction itself, synchronous, answering with the batch's log rows (see below). */
export function sqliteBatchCommitter(
  db: Db,
  options: BatchStoreOptions,
): (batch: BatchItem[]) => BatchResult {
  const decide = sqliteBatchDecider(db, options);
  return (batch) => {
    const { decisions, failed } = decide(batch);
    return recordsOf(batch, decisions, failed);
  };
}

/**
 * The transaction itself, synchronous; usable wherever the database handle lives. It answers
 * with what it decided for each item (the writer thread sends no more back: `recordsOf` rebuilds
 * the rows where the batch came from). A batch whose transaction fails is written again one item
 * per transaction, so that only the item SQLite refuses fails (`failed`); a batch of one fails as
 * it is.
 */
export function sqliteBatchDecider(
  db: Db,
  options: BatchStoreOptions,
): (batch: BatchItem[]) => BatchDecisions {
  const findKey = db.prepare<[string, string], { delivery_id: string; accepted_at: number }>(
    'SELECT delivery_id, accepted_at FROM dedupe_keys WHERE webhook_uid = ? AND identity = ?',
  );
  const upsertKey = db.prepare(`
    INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (webhook_uid, identity) DO UPDATE SET delivery_id = excluded.delivery_id, accepted_at = excluded.accepted_at`);
  const insertDelivery = db.prepare(`
    INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source, client_address,
                            reason, duplicate_of, replay_of, event_type, summary)
    VALUES (@id, @webhookUid, @label, @size, @receivedAt, @identity, @identitySource, @clientAddress,
            @reason, @duplicateOf, @replayOf, @eventType, @summary)`);
  const insertRequest = db.prepare(
    'INSERT INTO request_contexts (delivery_id, method, path, headers) VALUES (?, ?, ?, ?)',
  );
  const insertPayload = db.prepare('INSERT INTO payloads (delivery_id, body) VALUES (?, ?)');
  const insertRun = db.prepare(`
    INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at)
    VALUES (?, ?, ?, ?, 'queued', ?, ?)`);

  const write = (row: DeliveryRecord, request: RequestContext | null): void => {
    insertDelivery.run(row);
    if (request) {
      insertRequest.run(row.id, request.method, request.path, JSON.stringify(request.headers));
    }
  };

  const acceptOne = (item: AcceptItem): AcceptDecision => {
    const decided = (decision: AcceptDecision): AcceptDecision => {
      write(acceptedRecord(item, decision).row, item.request);
      return decision;
    };
    if (!item.replayOf) {
      // A replayed signature first: its key cannot be chosen by a sender, the identity can.
      const signature = signatureClaim(item, options.dedupeWindowMs);
      const replayed = signature && findKey.get(item.webhookUid, signature.identity);
      const previous =
        replayed && replayed.accepted_at > item.receivedAt - options.dedupeWindowMs
          ? replayed
          : findKey.get(item.webhookUid, item.identity);
      if (previous && previous.accepted_at > item.receivedAt - options.dedupeWindowMs) {
        return decided({ label: 'Duplicate', duplicateOf: previous.delivery_id });
      }
      upsertKey.run(item.webhookUid, item.identity, item.id, item.receivedAt);
      if (signature) {
        upsertKey.run(item.webhookUid, signature.identity, item.id, signature.acceptedAt);
      }
    }
    const accepted = decided({ label: 'Accepted' });
    insertPayload.run(item.id, item.body);
    for (const run of item.runs) {
      insertRun.run(run.id, run.automationId, item.id, item.webhookUid, run.input, item.receivedAt);
    }
    return accepted;
  };

  const writeAll = db.transaction((batch: BatchItem[]): (AcceptDecision | null)[] =>
    batch.map((pending) => {
      if (pending.kind === 'accept') return acceptOne(pending.item);
      write(rejectedRecord(pending.item), pending.item.request);
      return null;
    }),
  );
  return (batch) => {
    try {
      return { decisions: writeAll(batch) };
    } catch (error) {
      if (batch.length === 1 || !refusedForItsData(error)) throw error;
      return oneByOne(batch, (pending) => writeAll([pending])[0] ?? null);
    }
  };
}

/** The batch one item per transaction, in batch order: only the items SQLite refuses fail. */
function oneByOne(
  batch: BatchItem[],
  writeOne: (pending: BatchItem) => AcceptDecision | null,
): BatchDecisions {
  const decisions: (AcceptDecision | null)[] = [];
  const failed: ItemFailure[] = [];
  batch.forEach((pending, index) => {
    try {
      decisions.push(writeOne(pending));
    } catch (error) {
      decisions.push(null);
      const message = error instanceof Error ? error.message : String(error);
      failed.push({ index, id: pending.item.id, message });
    }
  });
  return { decisions, failed };
}
