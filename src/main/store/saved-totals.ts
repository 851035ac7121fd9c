import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KeptTotal, Part } from './search-total-parts.js';

/**
 * Kept search totals saved beside the log (PostgreSQL's `search_totals`, SQLite's in the search
 * index file): a relay started again, or another relay, counts on from them instead of counting
 * from scratch (seconds for a common text at a week's scale). Whatever was saved, however old,
 * is a sound base to count on from (each store's search-totals.ts checks each part against the
 * log); a total not saved, or a save that fails, only means a first count later, so neither is
 * an error the reader sees.
 */

/** A count on from a kept total saved at most this often per search (first counts at once). */
const SAVE_EVERY_MS = 60_000;
/** Totals no relay has used for this long are deleted (checked at most hourly per relay). */
export const UNUSED_MS = 7 * 24 * 3600_000;
const CLEAN_EVERY_MS = 3600_000;
/** Searches whose last save time is remembered (a count on of the others saves at once). */
const SAVE_TIMES_KEPT = 256;

/** A total as saved: its parts, their span, its mark, and what a store adds (SQLite's `last`). */
const savedShape = z.object({
  parts: z.array(z.tuple([z.number().int(), z.number().int(), z.number().int()])),
  span: z.object({ lowest: z.number().int(), rest: z.number().int() }),
  upTo: z.number().int(),
  last: z.string().nullable().optional(),
});
export type SavedTotal = KeptTotal & { last?: string | null | undefined };

/** A saved total's name: the search's key (its text among it) never stored as it is. */
export const savedNameOf = (key: string): string => createHash('sha256').update(key).digest('hex');

export const savedJson = (kept: SavedTotal): string =>
  JSON.stringify({
    parts: [...kept.parts].map(([part, { hits, entries }]) => [part, hits, entries]),
    span: kept.span,
    upTo: kept.upTo,
    ...(kept.last === undefined ? {} : { last: kept.last }),
  });

/** A saved total read back (as text or as JSON already parsed); undefined when unreadable. */
export function savedFrom(stored: unknown): SavedTotal | undefined {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return undefined;
    }
  }
  const saved = savedShape.safeParse(value);
  if (!saved.success) return undefined;
  const parts = new Map<number, Part>(
    saved.data.parts.map(([part, hits, entries]) => [part, { hits, entries }]),
  );
  const { span, upTo, last } = saved.data;
  return { parts, span, upTo, ...(last === undefined ? {} : { last }) };
}

/** When a total is saved: each first count, a count on at most every SAVE_EVERY_MS. */
export function saveSchedule(clock: () => number = Date.now) {
  const savedAt = new Map<string, number>();
  let cleanedAt = -Infinity;
  return {
    /** Whether to save `key`'s total now, and whether to delete the unused ones with it. */
    due(key: string, first: boolean): { now: number; clean: boolean } | null {
      const now = clock();
      if (!first && now - (savedAt.get(key) ?? -Infinity) < SAVE_EVERY_MS) return null;
      const clean = now - cleanedAt >= CLEAN_EVERY_MS;
      if (clean) cleanedAt = now;
      return { now, clean };
    },
    /** `key` saved at `now` (a save that failed is not: the next count tries again). */
    saved(key: string, now: number): void {
      savedAt.delete(key);
      savedAt.set(key, now);
      if (savedAt.size > SAVE_TIMES_KEPT) savedAt.delete(savedAt.keys().next().value!);
    },
  };
}
