import type { Bind, DeliveryDialect, SearchWindow } from '../sql/delivery-filter.js';

/** An FTS5 phrase: the text taken literally (quotes doubled), matched as a substring by trigrams. */
export const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** Where SQLite's SQL differs from PostgreSQL's in the statements written once (store/sql/). */
export const sqliteDialect: DeliveryDialect = {
  labelIn: (bind, labels) =>
    `d.label IN (SELECT value FROM json_each(${bind(JSON.stringify(labels))}))`,
  /**
   * The index (its own file, attached as `search`), plus a plain scan of the webhook's entries
   * still waiting to be indexed (few once the catch-up has run: see search-indexer.ts), so an
   * entry is found from its 202 on.
   */
  holds: (bind, text, webhookUid, window) => {
    const phrase = bind(ftsPhrase(text));
    const bounds = window === undefined ? null : rowidBounds(bind, window);
    const inWindow = bounds === null ? '' : ` AND ${bounds('rowid')}`;
    // The index file's rows, but none of a rowid queued to be forgotten (its payload dropped, or
    // the rowid given to a new entry: versions 17 and 19). A deleted entry's rows stay until a
    // purge, and match no entry. A migrated file's old index answers for its entries until the
    // new one has been rebuilt past them, but not for those queued (the scan answers) nor those
    // indexed ahead of the rebuild (the new one does).
    return `d.rowid IN (
      SELECT rowid FROM search.delivery_search WHERE delivery_search MATCH ${phrase}${inWindow}
        AND rowid NOT IN (SELECT delivery_rowid FROM main.delivery_search_forget)
      UNION ALL
      SELECT rowid FROM main.delivery_search WHERE delivery_search MATCH ${phrase}
        AND ${legacyBounds(bind, window)}
        AND rowid NOT IN (SELECT delivery_rowid FROM main.delivery_search_pending)
        AND rowid NOT IN (SELECT delivery_rowid FROM search.delivery_search_ahead)
      UNION ALL
      ${queuedScan(bind, text, webhookUid, bounds)})`;
  },
  commaList: (column) => `group_concat(${column})`,
  // Without statistics SQLite would take the webhook's index and read all of its entries.
  byTime: 'INDEXED BY deliveries_by_time',
};

/**
 * The webhook's entries still waiting to be indexed that hold `text`, scanned. The scan is driven
 * by the queue (CROSS JOIN: SQLite otherwise walked the webhook's whole index to probe the queue,
 * 600,000 entries for every search). It folds ASCII case only (SQLite's lower(), so the needle is
 * folded the same way), the index all of Unicode; a non-ASCII word in other case is found once
 * its entry is indexed.
 */
function queuedScan(
  bind: Bind,
  text: string,
  webhookUid: string,
  bounds: ((column: string) => string) | null,
): string {
  const needle = bind(text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()));
  const within = (field: string): string => `instr(lower(${field}), ${needle}) > 0`;
  return `SELECT s.delivery_rowid FROM delivery_search_pending s
        CROSS JOIN deliveries pd ON pd.rowid = s.delivery_rowid
        LEFT JOIN payloads pp ON pp.delivery_id = pd.id
      WHERE +pd.webhook_uid = ${webhookUid}${bounds === null ? '' : ` AND ${bounds('s.delivery_rowid')}`}
        AND (${within('pd.id')} OR ${within("coalesce(pd.identity, '')")}
         OR ${within("coalesce(pd.event_type, '')")} OR ${within("coalesce(pd.summary, '')")}
         OR ${within('CAST(pp.body AS TEXT)')})`;
}

/**
 * The old index's part (migration 017) within the window, as one lower and one upper bound: FTS5
 * seeks to one bound of each kind and tests any other on every hit, so the window and the marks
 * are folded into one each (with the window's bound and the mark apart, FTS5 may seek to the mark
 * and test the window on every old hit past it; not measured apart, see performance.md).
 */
function legacyBounds(bind: Bind, window: SearchWindow | undefined): string {
  const rebuilt = '(SELECT upto FROM search.delivery_search_rebuilt) + 1';
  const legacy = '(SELECT upto FROM main.delivery_search_legacy)';
  const from = window?.fromRowid === undefined ? null : bind(window.fromRowid);
  const to = window?.toRowid === undefined ? null : bind(window.toRowid);
  const lower = from === null ? rebuilt : `max(CAST(${from} AS INTEGER), ${rebuilt})`;
  const upper = to === null ? legacy : `min(CAST(${to} AS INTEGER), ${legacy})`;
  return `rowid >= CAST(${lower} AS INTEGER) AND rowid <= CAST(${upper} AS INTEGER)`;
}

/**
 * `column` within the window's rowids, as SQL. The bounds are cast: better-sqlite3 binds a JS
 * number as a REAL, and FTS5 then takes a rowid bound as a filter over every hit rather than a
 * place to seek to (measured at a million entries: 800 hits past a bound in 52 ms bound as REAL,
 * under 1 ms as an INTEGER; the last day's 49,183 hits of 393,401 in 17 ms).
 */
function rowidBounds(bind: Bind, window: SearchWindow): (column: string) => string {
  const from = window.fromRowid === undefined ? null : bind(window.fromRowid);
  const to = window.toRowid === undefined ? null : bind(window.toRowid);
  return (column) =>
    [
      from === null ? '' : `${column} >= CAST(${from} AS INTEGER)`,
      to === null ? '' : `${column} <= CAST(${to} AS INTEGER)`,
    ]
      .filter((part) => part !== '')
      .join(' AND ') || 'true';
}

/** The same, for a search the index says is rare: its rows drive the page and the count. */
export const sqliteRareSearchDialect: DeliveryDialect = { ...sqliteDialect, drivenBySearch: true };

/**
 * A rare search whose hits in the index file are known (search-plan.ts: `hits`, a JSON array of
 * rowids): they drive the page and the count without matching the phrase again. As `holds`, less
 * a rowid queued to be forgotten, plus the webhook's entries still queued for the index; the old
 * index (migration 017) has no part, as the plan gives hits only once it answers for nothing.
 */
export function sqliteKnownHitsDialect(hits: string): DeliveryDialect {
  return {
    ...sqliteRareSearchDialect,
    // A window only narrows the work (sql/delivery-filter.ts), and these hits are few already.
    holds: (bind, text, webhookUid) => `d.rowid IN (
      SELECT value FROM json_each(${bind(hits)})
        WHERE value NOT IN (SELECT delivery_rowid FROM main.delivery_search_forget)
      UNION ALL
      ${queuedScan(bind, text, webhookUid, null)})`,
  };
}
