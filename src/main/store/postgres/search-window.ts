import { idFloor } from '../../../shared/delivery-ids.js';
import type { DeliveryPageFilter } from '../deliveries.js';
import type { SearchWindow } from '../sql/delivery-filter.js';
import type { Queryable } from './client.js';

/** The window's first size, in pages: one read when a quarter of the webhook's entries match. */
const FIRST_WINDOW_PAGES = 4;
/** A window grown for a page at the rate of hits the last one held, with this much room. */
const SPARE = 1.5;
/** Fewer hits than a page / SPARSE in a window: a sparse text, read through the indexes. */
const SPARSE = 8;
/**
 * The largest window read row by row (each entry's payload converted and folded, ~30 µs: 6,400
 * took 188 ms at 200,000 entries): a text sparser is read through the trigram indexes, whose
 * candidates are then fewer (each ~70 µs: read, converted, folded to recheck it).
 */
const WINDOW_MOST = 8_000;
/** Past any delivery ID (they are `dlv_` + a ULID): no `before`. */
const AFTER_EVERY_ID = '\uffff';

export type Page = { items: Array<{ id: string }>; nextBefore: string | null };

/**
 * A search's page read from a window of the webhook's newest entries (from `before` on, in the
 * time range), each tested row by row (dialect.ts, given a window), rather than from the whole
 * log's trigram candidates: a common text (Tromsø, ~25 % of the log) has tens of thousands, each
 * one's payload read, converted and folded again to recheck it. The window is found by the
 * webhook's (webhook_uid, id) index; one that holds less than a page of hits grows and is read
 * again, sized by the rate of hits it held, up to WINDOW_MOST entries; a sparse text is read
 * through the indexes (`unwindowed`).
 * Exact: a window holds every entry of the range newer than its oldest, so its first page is the
 * log's.
 */
export function windowedPages(q: Queryable) {
  const newest = async (
    webhookUid: string,
    before: string | null,
    only: DeliveryPageFilter,
    size: number,
  ): Promise<{ fromId: string | null; n: number }> => {
    const { rows } = await q.query<{ from_id: string | null; n: string }>(
      `SELECT min(id) AS from_id, count(*) AS n FROM (
         SELECT id FROM deliveries
         WHERE webhook_uid = $1 AND id < $2 AND id >= $3 AND received_at <= $4
         ORDER BY id DESC LIMIT $5) w`,
      [
        webhookUid,
        before ?? AFTER_EVERY_ID,
        only.from === undefined ? '' : idFloor(only.from),
        only.to ?? Number.MAX_SAFE_INTEGER,
        size,
      ],
    );
    return { fromId: rows[0]!.from_id, n: Number(rows[0]!.n) };
  };

  return async <P extends Page>(
    webhookUid: string,
    limit: number,
    before: string | null,
    only: DeliveryPageFilter,
    read: (window: SearchWindow) => Promise<P>,
    unwindowed: () => Promise<P>,
  ): Promise<P> => {
    let size = limit * FIRST_WINDOW_PAGES;
    for (;;) {
      const window = await newest(webhookUid, before, only, size);
      // Nothing left in the range: the page is empty, as the whole search would answer.
      if (window.fromId === null) return read({ fromId: AFTER_EVERY_ID });
      const page = await read({ fromId: window.fromId });
      // The whole rest of the range, or more than a page within the window: the log's page.
      if (window.n < size || page.nextBefore !== null) return page;
      // A window sized for a page at the rate this one held, with room to spare; a text too
      // sparse for the largest goes through the indexes.
      const hits = page.items.length;
      const wanted = Math.ceil((size * (limit + 1) * SPARE) / Math.max(hits, 1));
      if (hits < limit / SPARSE || wanted > WINDOW_MOST || size >= WINDOW_MOST) break;
      size = wanted;
    }
    return unwindowed();
  };
}
