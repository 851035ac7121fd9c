import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';
import { ftsPhrase } from './dialect.js';

/**
 * Fewer hits than this in the whole log's index: the search is rare, and its rows drive the page
 * and the count (each looked up by rowid, the other filters tested on it). More: the webhook's
 * index is walked newest first against the index's set of matches, as before.
 *
 * Measured on the million-entry seed (600,000 in the busy webhook), CPU per statement warm: a
 * rare word's count 8 ms driven by its hits against 78 ms walking the webhook; its page of 200,
 * 10 ms against 75 ms; a common word (234,719 hits in the webhook) 190 ms walking and 500 ms
 * driven. Counting up to the bound costs what the rare search itself costs, and a common one
 * stops after the bound's first hits.
 */
export const RARE_HITS = 2_000;

/**
 * How long a search's estimate is reused: a list read asks for its page and its total, and the
 * next pages follow, each asking again. Whether a search is rare is a matter of speed only (both
 * plans answer the same rows), so an estimate a few seconds old is good enough; its hits are
 * reused only while the index is unchanged.
 */
const ESTIMATE_KEPT_MS = 5_000;

/** A search's plan: whether it is rare, and then its hits in the index, while they still hold. */
export interface SearchPlan {
  rare: boolean;
  /**
   * The rare search's hits in the index file (rowids, as JSON), while the file is as it was when
   * they were found; null when they must be matched again, or when the old index (migration 017)
   * still answers for some entries.
   */
  hits: string | null;
}

/**
 * Each search's plan (its own estimate: the hits, counted up to `RARE_HITS`). A rare search's
 * hits are kept, and its page and total are driven by them while the index file is unchanged
 * (`data_version`): a list read asks for its plan, its page and its total, and on a week's log
 * each match of a phrase whose trigrams are in every payload took about 110 ms.
 */
export function searchPlans(
  db: Db,
  now: () => number = () => performance.now(),
): (q: string) => SearchPlan {
  const hits = db
    .prepare<{ q: string; limit: number }, number>(
      'SELECT rowid FROM search.delivery_search WHERE delivery_search MATCH @q LIMIT @limit',
    )
    .pluck();
  const legacyHits = db
    .prepare<{ q: string; limit: number }, number>(
      `SELECT count(*) FROM (
         SELECT 1 FROM main.delivery_search WHERE delivery_search MATCH @q
           AND rowid > CAST((SELECT upto FROM search.delivery_search_rebuilt) AS INTEGER)
           AND rowid <= CAST((SELECT upto FROM main.delivery_search_legacy) AS INTEGER)
         LIMIT @limit)`,
    )
    .pluck();
  const legacyLeft = db
    .prepare<[], number>(
      `SELECT (SELECT upto FROM main.delivery_search_legacy)
         > (SELECT upto FROM search.delivery_search_rebuilt)`,
    )
    .pluck();
  const indexVersion = db.prepare<[], number>('PRAGMA search.data_version').pluck();
  let last = { q: '', at: -Infinity, version: -1, plan: { rare: false, hits: null } as SearchPlan };
  return (q) => {
    const at = now();
    const version = indexVersion.get()!;
    // Only a rare search's kept hits depend on the index being as it was.
    const { plan } = last;
    const kept = q === last.q && at - last.at <= ESTIMATE_KEPT_MS;
    if (kept && (plan.hits === null || version === last.version)) return plan;
    const phrase = ftsPhrase(q);
    const found = hits.all({ q: phrase, limit: RARE_HITS });
    const legacy = legacyLeft.get() === 1;
    const n = found.length + (legacy ? legacyHits.get({ q: phrase, limit: RARE_HITS })! : 0);
    const rare = n < RARE_HITS;
    last = { q, at, version, plan: { rare, hits: rare && !legacy ? JSON.stringify(found) : null } };
    return last.plan;
  };
}
