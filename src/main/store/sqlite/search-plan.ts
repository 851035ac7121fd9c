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
 * next pages follow, each asking again. The plan is a matter of speed only (both plans answer the
 * same rows), so an estimate a few seconds old is good enough.
 */
const ESTIMATE_KEPT_MS = 5_000;

/** Whether `q` is rare in the index (its own estimate: the hits, counted up to `RARE_HITS`). */
export function rareSearch(
  db: Db,
  now: () => number = () => performance.now(),
): (q: string) => boolean {
  const hits = db
    .prepare<{ q: string; limit: number }, number>(
      `SELECT count(*) FROM (
         SELECT 1 FROM search.delivery_search WHERE delivery_search MATCH @q
         UNION ALL
         SELECT 1 FROM main.delivery_search WHERE delivery_search MATCH @q
           AND rowid > CAST((SELECT upto FROM search.delivery_search_rebuilt) AS INTEGER)
           AND rowid <= CAST((SELECT upto FROM main.delivery_search_legacy) AS INTEGER)
         LIMIT @limit)`,
    )
    .pluck();
  let last = { q: '', rare: false, at: -Infinity };
  return (q) => {
    const at = now();
    if (q !== last.q || at - last.at > ESTIMATE_KEPT_MS) {
      last = { q, rare: hits.get({ q: ftsPhrase(q), limit: RARE_HITS })! < RARE_HITS, at };
    }
    return last.rare;
  };
}
