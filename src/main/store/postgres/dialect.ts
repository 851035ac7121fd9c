import type { DeliveryDialect } from '../sql/delivery-filter.js';

/** `LIKE` takes `%`, `_` and `\` as wildcards and escape: a search means them literally. */
const likeSubstring = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Where PostgreSQL's SQL differs from SQLite's in the statements written once (store/sql/). */
export const postgresDialect: DeliveryDialect = {
  labelIn: (bind, labels) => `d.label = ANY(${bind([...labels])}::text[])`,
  /**
   * Case folded on both sides (migration 8). A row is found through the trigram indexes once
   * indexed, and by reading it while still queued (migration 10; few: the indexers keep up
   * between bursts), so an entry is found from its 202 on. Each table's two halves are one OR,
   * which PostgreSQL answers from both partial indexes in one bitmap.
   */
  holds: (bind, text) => {
    const pattern = bind(likeSubstring(text));
    const like = (field: string): string => `${field} LIKE hookport_fold(${pattern})`;
    const fields = ['s.id', 's.identity', 's.event_type', 's.summary'].map((f) =>
      like(`hookport_fold(${f})`),
    );
    // Version 16: the UTF-8 checked when the payload was written, no subtransaction per row here.
    const payload = like('hookport_search_text(p.body, p.utf8)');
    return `d.id IN (
      SELECT s.id FROM deliveries s
      WHERE ${fields.map((f) => `(s.indexed AND ${f})`).join(' OR ')}
         OR (NOT s.indexed AND (${fields.join(' OR ')}))
      UNION
      SELECT p.delivery_id FROM payloads p
      WHERE (p.indexed AND ${payload}) OR (NOT p.indexed AND ${payload}))`;
  },
  commaList: (column) => `string_agg(${column}, ',' ORDER BY ${column})`,
  // The planner's statistics pick the time index for a minute's range.
  byTime: '',
};
