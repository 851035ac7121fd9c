import { performance } from 'node:perf_hooks';
import { pacedSlices, type SlicePacing } from '../paced-slices.js';
import { pruneCutoff, type RetentionPolicy, type Retention } from '../retention-policy.js';
import type { Db } from './db.js';
import { unsyncedTransaction } from './unsynced-transaction.js';
import { neverWanted } from './writer-yield.js';

/**
 * On the writer thread, between its commits (a commit arriving during a slice waits for it):
 * 2 ms slices, a quarter of the time. Pruning the oldest day of a week (the 125,000
 * entries) takes a few minutes; each hour's prune after that, an hour's worth.
 */
const RETENTION_PACING: SlicePacing = { ms: 2, share: 0.25 };
/** Entries read from the time index per step; a slice deletes as many steps as its budget allows. */
const STEP = 32;

interface Candidate {
  rowid: number;
  id: string;
  webhook_uid: string;
  received_at: number;
}

/**
 * Retention on SQLite, on the thread that also answers senders: so it works in slices of a few
 * milliseconds (each one short transaction), resting between them (see `RETENTION_PACING`). It
 * walks the time index from the oldest entry up to the cutoff, once, with a cursor: never a
 * window over the whole table (which took seconds per batch at a week's scale). Whether an entry
 * is among its webhook's newest `minPerWebhook` is one index lookup per webhook: the ID of the
 * newest N-th, read as the prune begins (entries that arrive later only raise it, so none that
 * the policy protects is ever deleted). The search index keeps the deleted entries' rows (they
 * match nothing) until they are a share of it, then forgets them and its merges drop them
 * (search-index-purge.ts): the writer thread tells it of each prune (`SearchIndexer.pruned`).
 */
export function createRetention(db: Db, lockWanted: () => boolean = neverWanted): Retention {
  const live = (): boolean => db.open;
  const pastCutoff = db.prepare<
    { cutoff: number; at: number; rowid: number; limit: number },
    Candidate
  >(`
    SELECT rowid, id, webhook_uid, received_at FROM deliveries INDEXED BY deliveries_by_time
    WHERE received_at < @cutoff AND (received_at, rowid) > (@at, @rowid)
    ORDER BY received_at, rowid LIMIT @limit`);
  // The (webhook_uid, id, …) index: the newest N-th of a webhook is N steps from its end.
  const nthNewest = db
    .prepare<[string, number], string>(
      'SELECT id FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT 1 OFFSET ?',
    )
    .pluck();
  const runPending = db
    .prepare<[string], number>(
      "SELECT EXISTS (SELECT 1 FROM runs WHERE delivery_id = ? AND status IN ('queued', 'running'))",
    )
    .pluck();
  // The entry first: with it gone, the payload's own trigger has nothing to re-queue.
  const deletes = [
    'DELETE FROM deliveries WHERE rowid = ?',
    'DELETE FROM payloads WHERE delivery_id = ?',
    'DELETE FROM request_contexts WHERE delivery_id = ?',
    'DELETE FROM forward_attempts WHERE delivery_id = ?',
    'DELETE FROM runs WHERE delivery_id = ?',
  ].map((sql) => db.prepare(sql));
  const expiredKeys = db.prepare<[number, number], { webhook_uid: string; identity: string }>(
    'SELECT webhook_uid, identity FROM dedupe_keys WHERE accepted_at < ? ORDER BY accepted_at LIMIT ?',
  );
  const deleteKey = db.prepare('DELETE FROM dedupe_keys WHERE webhook_uid = ? AND identity = ?');
  /** A slice ends after the entry at hand once its budget is spent or someone waits for the lock. */
  const sliceOver = (started: number, budgetMs: number): boolean =>
    performance.now() - started >= budgetMs || lockWanted();

  const deleteEntry = (entry: Candidate): void => {
    const [delivery, ...rest] = deletes;
    delivery!.run(entry.rowid);
    for (const statement of rest) statement.run(entry.id);
  };

  return {
    /** Deletes what the policy no longer protects, a slice at a time; how many deliveries went. */
    async prune(policy: RetentionPolicy, now: number): Promise<number> {
      const cutoff = pruneCutoff(policy, now);
      /** Per webhook: entries at or above this ID are among its newest N ('' : all of them are). */
      const floors = new Map<string, string>();
      const floorOf = (uid: string): string => {
        let floor = floors.get(uid);
        if (floor === undefined) {
          floor =
            policy.minPerWebhook > 0
              ? (nthNewest.get(uid, policy.minPerWebhook - 1) ?? '')
              : '\uffff';
          floors.set(uid, floor);
        }
        return floor;
      };
      const protectedEntry = (entry: Candidate): boolean => {
        const floor = floorOf(entry.webhook_uid);
        return floor === '' || entry.id >= floor || runPending.get(entry.id) === 1;
      };
      let cursor = { at: -Infinity, rowid: -Infinity };
      let removed = 0;
      const slice = unsyncedTransaction(
        db,
        (budgetMs: number): boolean => {
          const started = performance.now();
          while (performance.now() - started < budgetMs) {
            const batch = pastCutoff.all({ cutoff, ...cursor, limit: STEP });
            for (const entry of batch) {
              cursor = { at: entry.received_at, rowid: entry.rowid };
              if (protectedEntry(entry)) continue;
              deleteEntry(entry);
              removed++;
              if (sliceOver(started, budgetMs)) return true;
            }
            if (batch.length < STEP) return false;
          }
          return true;
        },
        'prune',
      );
      await pacedSlices(RETENTION_PACING, slice, live, lockWanted);
      const keyCutoff = now - policy.dedupeWindowMs;
      const keys = unsyncedTransaction(
        db,
        (budgetMs: number): boolean => {
          const started = performance.now();
          while (performance.now() - started < budgetMs) {
            const batch = expiredKeys.all(keyCutoff, STEP);
            for (const key of batch) deleteKey.run(key.webhook_uid, key.identity);
            if (batch.length < STEP) return false;
            if (lockWanted()) return true;
          }
          return true;
        },
        'prune-keys',
      );
      await pacedSlices(RETENTION_PACING, keys, live, lockWanted);
      return removed;
    },
  };
}
