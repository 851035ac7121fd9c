import type { Bind, DeliveryDialect } from '../sql/delivery-filter.js';

/** `LIKE` takes `%`, `_` and `\` as wildcards and escape: a search means them literally. */
const likeSubstring = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

const RUN_MIN = 3;
const longestRun = (text: string, chars: RegExp): string | null => {
  const longest = (text.match(chars) ?? []).reduce((a, b) => (b.length > a.length ? b : a), '');
  return longest.length >= RUN_MIN ? longest : null;
};
/**
 * ASCII characters that are not letters (digits, punctuation, spaces): no folding changes them,
 * and no other character folds into one, so a payload whose folded text holds the search holds
 * such a run of it in its stored bytes as they are (`position`, ~2 µs for 1.6 KB, against ~20 µs
 * to convert and fold the payload). An order number's or an ID's search reads few in full.
 */
const NON_LETTERS = /[\x20-\x40\x5b-\x60\x7b-\x7e]+/g;
/**
 * ASCII characters but `i` and `k`, lowered: in a payload whose folded text holds the search,
 * such a run of it stands in the text with its ASCII letters lowered and nothing else (`lower`
 * under the C collation, ~10 µs): only ASCII characters fold into ASCII ones, but for İ (into
 * `i` and a combining dot) and the Kelvin sign (into `k`). A plain word's search (Tromsø: `troms`)
 * reads few payloads in full.
 */
const ASCII_BUT_I_K = /[\x20-\x68\x6a\x6c-\x7e]+/g;

/** Printable ASCII whole. */
const ASCII = /^[\x20-\x7e]+$/;
/** The only characters but ASCII ones that fold into ASCII: İ and the Kelvin sign, as UTF-8. */
const INTO_ASCII = ['\u0130', '\u212a'].map((c) => Buffer.from(c, 'utf8'));

/** The search lowered, when it is ASCII whole (null: otherwise). */
function asciiLowered(text: string): string | null {
  const lowered = text.toLowerCase();
  return ASCII.test(lowered) ? lowered : null;
}

/**
 * A payload (`body`, `utf8` its columns) holds the search (`full`): first tested for a run of
 * it, where the search has one, more cheaply than by folding the payload. A CASE keeps its order
 * (a WHERE's conditions may be reordered) and no bytes that are not UTF-8 reach `convert_from`.
 */
function payloadHolds(bind: Bind, text: string, like: (field: string) => string) {
  const bytes = longestRun(text, NON_LETTERS);
  const lowered = bytes === null ? longestRun(text.toLowerCase(), ASCII_BUT_I_K) : null;
  const byteRun = bytes === null ? null : bind(Buffer.from(bytes, 'utf8'));
  const loweredRun = lowered === null ? null : bind(lowered);
  return (p: string): string => {
    const full = like(`hookport_search_text(${p}.body, ${p}.utf8)`);
    if (byteRun !== null) return `(position(${byteRun}::bytea IN ${p}.body) > 0 AND ${full})`;
    if (loweredRun === null) return full;
    const loweredText = `lower(convert_from(${p}.body, 'UTF8') COLLATE "C")`;
    return `CASE WHEN NOT ${p}.utf8 THEN false WHEN strpos(${loweredText}, ${loweredRun}) = 0
      THEN false ELSE ${full} END`;
  };
}

/**
 * The search tested on each row of a window (search-window.ts) rather than through the trigram
 * indexes: the same folded texts, so the same answer, for a window's few hundred entries whether
 * indexed or still queued.
 */
const eachRowHolds = (like: (field: string) => string, payload: (p: string) => string): string => {
  const fields = ['d.id', 'd.identity', 'd.event_type', 'd.summary'].map((f) =>
    like(`hookport_fold(${f})`),
  );
  // A scalar subquery, read for each row: the planner would make an EXISTS one hashed scan of
  // every payload.
  const held = `(SELECT ${payload('p')} FROM payloads p WHERE p.delivery_id = d.id)`;
  return `(${[...fields, held].join(' OR ')})`;
};

/**
 * `d` holds the text (DeliveryDialect.holds). Case folded on both sides (migration 8). A row is
 * found through the trigram indexes once indexed, and by reading it while still queued
 * (migration 10; few: the indexers keep up between bursts), so an entry is found from its 202 on.
 * Each table's two halves are arms of their own: as one OR, a bitmap scan of both partial indexes
 * rechecked each candidate's folded payload twice (its recheck condition, then its filter), half
 * of a common text's first count. `IN` keeps each ID once, whichever arms hold it.
 *
 * `scoped`: the queued arms read only the webhook's entries from the oldest queued row on (the
 * queue is the log's newest rows, indexed in order). After a restart with a backlog most of it is
 * other webhooks', and each queued payload is converted and folded to be tested (~15 µs): a rare
 * word's page at a million entries with 50,000 queued, 447–536 ms → 237–388 ms. Not for a count
 * read by parallel workers: the join's fence (OFFSET 0, so that the payload is tested after the
 * join, not at the payloads' scan) keeps them out, and Tromsø's first count took 9–12 s, not 6–7.
 */
const holdsText =
  (scoped: boolean, scanned = false): DeliveryDialect['holds'] =>
  (bind, text, webhookUid, window) => {
    const pattern = bind(likeSubstring(text));
    const like = (field: string): string => `${field} LIKE hookport_fold(${pattern})`;
    const tested = payloadHolds(bind, text, like);
    if (window !== undefined) return eachRowHolds(like, tested);
    const fields = ['s.id', 's.identity', 's.event_type', 's.summary']
      .map((f) => like(`hookport_fold(${f})`))
      .join(' OR ');
    // Version 16: the UTF-8 checked when the payload was written, no subtransaction per row here.
    const folded = like('hookport_search_text(p.body, p.utf8)');
    const lowered = scanned ? asciiLowered(text) : null;
    const payload = lowered === null ? folded : scannedHolds(bind, lowered, folded);
    const webhookSince = (w: string, oldest: string): string =>
      `${w}.webhook_uid = ${webhookUid} AND ${w}.id >= (${oldest})`;
    const queuedEntries = scoped
      ? `SELECT s.id FROM deliveries s
         WHERE ${webhookSince('s', 'SELECT min(id) FROM deliveries WHERE NOT indexed')}
           AND NOT s.indexed AND (${fields})`
      : `SELECT s.id FROM deliveries s WHERE NOT s.indexed AND (${fields})`;
    const queuedPayloads = scoped
      ? `SELECT p.delivery_id FROM (
           SELECT p.delivery_id, p.body, p.utf8 FROM deliveries w
           JOIN payloads p ON p.delivery_id = w.id AND NOT p.indexed
           WHERE ${webhookSince('w', 'SELECT min(delivery_id) FROM payloads WHERE NOT indexed')}
           OFFSET 0) p
         WHERE ${tested('p')}`
      : `SELECT p.delivery_id FROM payloads p WHERE NOT p.indexed AND ${tested('p')}`;
    return `d.id IN (
      SELECT s.id FROM deliveries s WHERE s.indexed AND (${fields})
      UNION ALL
      ${queuedEntries}
      UNION ALL
      SELECT p.delivery_id FROM payloads p WHERE p.indexed AND ${payload}
      UNION ALL
      ${queuedPayloads})`;
  };

/** Where PostgreSQL's SQL differs from SQLite's in the statements written once (store/sql/). */
export const postgresDialect: DeliveryDialect = {
  labelIn: (bind, labels) => `d.label = ANY(${bind([...labels])}::text[])`,
  holds: holdsText(true),
  commaList: (column) => `string_agg(${column}, ',' ORDER BY ${column})`,
  pageIdsFirst: true,
  // The planner's statistics pick the time index for a minute's range.
  byTime: '',
};

/** For a first count read by parallel workers (search-totals.ts): the queued arms unscoped. */
export const postgresParallelDialect: DeliveryDialect = {
  ...postgresDialect,
  holds: holdsText(false),
};

/**
 * An ASCII search (`lowered`) in a payload, tested on its text with only its ASCII letters
 * lowered: exactly the folded test (`folded`) for a payload with neither İ nor the Kelvin sign,
 * whose folds alone bring ASCII letters (`i`, `k`) from elsewhere; a payload with either (few)
 * is also tested folded when the search holds `i` or `k`. No bytes that are not UTF-8 reach
 * convert_from. A LIKE, as the planner estimates it (tens of rows), keeps the hashed join's
 * workers sharing the scan: `strpos(…) > 0` (a third of the payloads) had each of them read
 * every payload, 1.2 s.
 */
function scannedHolds(bind: Bind, lowered: string, folded: string): string {
  const asciiLowered = `lower(convert_from(CASE WHEN p.utf8 THEN p.body END, 'UTF8') COLLATE "C")
    LIKE ${bind(likeSubstring(lowered))}`;
  if (!/[ik]/.test(lowered)) return asciiLowered;
  const foldsIntoAscii = INTO_ASCII.map((c) => `position(${bind(c)}::bytea IN p.body) > 0`);
  return `(${asciiLowered} OR ((${foldsIntoAscii.join(' OR ')}) AND ${folded}))`;
}

/** A search whose payloads' arm postgresScanDialect reads without folding each payload. */
export const scannable = (text: string): boolean => asciiLowered(text) !== null;

/**
 * For a first count of a text (scannable) in most payloads: the indexed payloads' arm a parallel
 * scan of every payload with only its ASCII letters lowered (~5 µs for 1.5 KB), not a recheck of
 * each trigram candidate's folded text (~12 µs). At 200,000 entries (120,000 payloads, 2 CPUs) the
 * first count of a text in all of them 1,102 → 552 ms, of one in 65 % 710 → 603 ms; the payloads'
 * scan alone ~450 ms, where a text in a single payload's candidates take 47.
 */
export const postgresScanDialect: DeliveryDialect = {
  ...postgresDialect,
  holds: holdsText(false, true),
};
