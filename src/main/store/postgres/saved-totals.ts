import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { KeptTotal, Part } from '../search-total-parts.js';
import type { Queryable } from './client.js';
import { withLocalSettings } from './local-settings.js';

/** A count on from a kept total saved at most this often per search (first counts at once). */
const SAVE_EVERY_MS = 60_000;
/** Totals no relay has used for this long are deleted (checked at most hourly per relay). */
const UNUSED_MS = 7 * 24 * 3600_000;
const CLEAN_EVERY_MS = 3600_000;

const savedShape = z.object({
  parts: z.array(z.tuple([z.number().int(), z.number().int(), z.number().int()])),
  span: z.object({ lowest: z.number().int(), rest: z.number().int() }),
  upTo: z.number().int(),
});

/** A saved total's name: the search's key (its text among it) never stored as it is (version 21). */
const nameOf = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * Kept search totals saved in the database (schema version 20): every relay on it starts from
 * them, also after a restart. Whatever was saved, however old, is a sound base to count on from
 * (search-totals.ts checks each part against the log); a total not saved, or a save that fails,
 * only means a first count later, so neither is an error the reader sees.
 */
export function savedSearchTotals(q: Queryable, clock: () => number = Date.now) {
  const savedAt = new Map<string, number>();
  let cleanedAt = -Infinity;

  const load = async (key: string): Promise<KeptTotal | undefined> => {
    const { rows } = await q.query<{ kept: unknown }>(
      'SELECT kept FROM search_totals WHERE search = $1',
      [nameOf(key)],
    );
    const saved = savedShape.safeParse(rows[0]?.kept);
    if (!saved.success) return undefined;
    const parts = new Map<number, Part>(
      saved.data.parts.map(([part, hits, entries]) => [part, { hits, entries }]),
    );
    return { parts, span: saved.data.span, upTo: saved.data.upTo };
  };

  const save = async (key: string, kept: KeptTotal, first: boolean): Promise<void> => {
    const now = clock();
    if (!first && now - (savedAt.get(key) ?? -Infinity) < SAVE_EVERY_MS) return;
    savedAt.delete(key);
    savedAt.set(key, now);
    if (savedAt.size > 256) savedAt.delete(savedAt.keys().next().value!);
    const json = JSON.stringify({
      parts: [...kept.parts].map(([part, { hits, entries }]) => [part, hits, entries]),
      span: kept.span,
      upTo: kept.upTo,
    });
    const clean = now - cleanedAt >= CLEAN_EVERY_MS;
    if (clean) cleanedAt = now;
    try {
      // Lost in a crash, it is counted again: not worth a WAL flush.
      await withLocalSettings(q, { synchronous_commit: 'off' }, async (on) => {
        await on.query(
          `INSERT INTO search_totals (search, kept, used_at) VALUES ($1, $2, $3)
           ON CONFLICT (search) DO UPDATE SET kept = excluded.kept, used_at = excluded.used_at`,
          [nameOf(key), json, now],
        );
        if (clean)
          await on.query('DELETE FROM search_totals WHERE used_at < $1', [now - UNUSED_MS]);
      });
    } catch {
      // A total not saved is counted again by the next relay that asks: nothing else is lost.
    }
  };

  return { load, save };
}
