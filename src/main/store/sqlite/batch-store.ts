import type { Db } from './db.js';
import type {
  AcceptItem,
  AcceptOutcome,
  BatchItem,
  BatchResult,
  DeliveryBatchStore,
  ReceivedRequest,
} from '../delivery-batch.js';
import { oneByOneNow } from '../delivery-batch.js';
import { acceptedRecord, rejectedRecord, type AcceptDecision } from '../batch-records.js';
import type { DeliveryRecord } from '../deliveries.js';
import { headersJson } from '../request-headers.js';
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

/**
 * The transaction itself, synchronous; usable wherever the database handle lives. A batch whose
 * transaction fails is written again one item per transaction, so that only the item SQLite
 * refuses fails (`BatchResult.failed`); a batch of one fails as it is.
 */
export function sqliteBatchCommitter(
  db: Db,
  options: BatchStoreOptions,
): (batch: BatchItem[]) => BatchResult {
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

  const write = (row: DeliveryRecord, request: ReceivedRequest | null): DeliveryRecord => {
    insertDelivery.run(row);
    if (request) {
      insertRequest.run(row.id, request.method, request.path, headersJson(request.headers));
    }
    return row;
  };

  const acceptOne = (item: AcceptItem): { outcome: AcceptOutcome; row: DeliveryRecord } => {
    const decided = (decision: AcceptDecision) => {
      const record = acceptedRecord(item, decision);
      write(record.row, item.request);
      return record;
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

  const writeAll = db.transaction((batch: BatchItem[]): BatchResult => {
    const outcomes: AcceptOutcome[] = [];
    const committed: DeliveryRecord[] = [];
    for (const pending of batch) {
      if (pending.kind === 'accept') {
        const { outcome, row } = acceptOne(pending.item);
        outcomes.push(outcome);
        committed.push(row);
      } else {
        committed.push(write(rejectedRecord(pending.item), pending.item.request));
      }
    }
    return { outcomes, committed };
  });
  return (batch) => {
    try {
      return writeAll(batch);
    } catch (error) {
      if (batch.length === 1 || !refusedForItsData(error)) throw error;
      return oneByOneNow(batch, (pending) => writeAll([pending]));
    }
  };
}
