import type { KeptTotal } from '../search-total-parts.js';
import { saveSchedule, savedFrom, savedJson, savedNameOf, UNUSED_MS } from '../saved-totals.js';
import type { Queryable } from './client.js';
import { withLocalSettings } from './local-settings.js';

/**
 * Kept search totals saved in the database (schema version 20; named by a digest since 21):
 * every relay on it starts from them, also after a restart (../saved-totals.ts).
 */
export function savedSearchTotals(q: Queryable, clock: () => number = Date.now) {
  const schedule = saveSchedule(clock);

  const load = async (key: string): Promise<KeptTotal | undefined> => {
    const { rows } = await q.query<{ kept: unknown }>(
      'SELECT kept FROM search_totals WHERE search = $1',
      [savedNameOf(key)],
    );
    const saved = savedFrom(rows[0]?.kept);
    return saved && { parts: saved.parts, span: saved.span, upTo: saved.upTo };
  };

  const save = async (key: string, kept: KeptTotal, first: boolean): Promise<void> => {
    const due = schedule.due(key, first);
    if (due === null) return;
    try {
      // Lost in a crash, it is counted again: not worth a WAL flush.
      await withLocalSettings(q, { synchronous_commit: 'off' }, async (on) => {
        await on.query(
          `INSERT INTO search_totals (search, kept, used_at) VALUES ($1, $2, $3)
           ON CONFLICT (search) DO UPDATE SET kept = excluded.kept, used_at = excluded.used_at`,
          [savedNameOf(key), savedJson(kept), due.now],
        );
        if (due.clean)
          await on.query('DELETE FROM search_totals WHERE used_at < $1', [due.now - UNUSED_MS]);
      });
      schedule.saved(key, due.now);
    } catch {
      // A total not saved is counted again by the next relay that asks: nothing else is lost.
    }
  };

  return { load, save };
}
