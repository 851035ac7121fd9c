import type { DeliveryDialect } from '../sql/delivery-filter.js';

/** An FTS5 phrase: the text taken literally (quotes doubled), matched as a substring by trigrams. */
const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** Where SQLite's SQL differs from PostgreSQL's in the statements written once (store/sql/). */
export const sqliteDialect: DeliveryDialect = {
  labelIn: (bind, labels) =>
    `d.label IN (SELECT value FROM json_each(${bind(JSON.stringify(labels))}))`,
  /**
   * The index, plus a plain scan of the entries still waiting to be indexed (few: the indexer
   * keeps up between bursts). The scan folds ASCII case only, the index all of Unicode; a
   * non-ASCII word in other case is found once its entry is indexed, a moment later.
   */
  holds: (bind, text) => {
    const phrase = bind(ftsPhrase(text));
    // SQLite's lower() folds ASCII only; the needle must be folded the same way.
    const needle = bind(text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()));
    const within = (field: string): string => `instr(lower(${field}), ${needle}) > 0`;
    return `d.rowid IN (
      SELECT rowid FROM delivery_search WHERE delivery_search MATCH ${phrase}
      UNION ALL
      SELECT s.delivery_rowid FROM delivery_search_pending s
        JOIN deliveries pd ON pd.rowid = s.delivery_rowid
        LEFT JOIN payloads pp ON pp.delivery_id = pd.id
      WHERE ${within('pd.id')} OR ${within("coalesce(pd.identity, '')")}
         OR ${within("coalesce(pd.event_type, '')")} OR ${within("coalesce(pd.summary, '')")}
         OR ${within('CAST(pp.body AS TEXT)')})`;
  },
  commaList: (column) => `group_concat(${column})`,
  // Without statistics SQLite would take the webhook's index and read all of its entries.
  byTime: 'INDEXED BY deliveries_by_time',
};
