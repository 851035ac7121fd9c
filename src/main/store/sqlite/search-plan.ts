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

/** Whether `q` is rare in the index (its own estimate: the hits, counted up to `RARE_HITS`). */
export function rareSearch(db: Db): (q: string) => boolean {
  const hits = db
    .prepare<[string, number], number>(
      'SELECT count(*) FROM (SELECT 1 FROM delivery_search WHERE delivery_search MATCH ? LIMIT ?)',
    )
    .pluck();
  return (q) => hits.get(ftsPhrase(q), RARE_HITS)! < RARE_HITS;
}
