import { idFloor } from '../../../shared/delivery-ids.js';
import type { DeliveryLabel } from '../../../shared/labels.js';
import type { DeliveryPageFilter } from '../deliveries.js';

/** Binds one value and answers its placeholder (`$n`). */
export type Bind = (value: unknown) => string;

/** Where the engines' SQL differs in the statements written once (sql/*.ts). */
export interface SqlDialect {
  /** The column's values of the group, comma-separated in their order. */
  commaList(column: string): string;
}

/** Where the engines answer the log's filters differently; the rest of the predicate is shared. */
export interface DeliveryDialect extends SqlDialect {
  /** `d.label` is one of `labels`. */
  labelIn(bind: Bind, labels: readonly DeliveryLabel[]): string;
  /** After `FROM deliveries d`: read it by its time index (a count of a minute's entries). */
  byTime: string;
  /**
   * `d` holds `text` in its ID, identity, event type, summary or payload (PRODUCT.md §14).
   * `webhookUid`: the placeholder of the webhook the whole filter is about (`d.webhook_uid`), for
   * a part of the search that can be narrowed to it. `window`: SQLite reads only part of its
   * index (sqlite/search-window.ts); PostgreSQL is never given one.
   */
  holds(bind: Bind, text: string, webhookUid: string, window?: SearchWindow): string;
  /**
   * A page reads its entries' IDs first, then their rows. PostgreSQL's planner otherwise took the
   * primary key for a time range's page (`SELECT d.*`): from the newest entry of every webhook
   * down to the range, 747,590 rows read and dropped for a day three days back at 2 million
   * (324 ms); for the IDs alone it walks the webhook's index, reading no row (27–84 ms).
   */
  pageIdsFirst?: boolean;
  /**
   * The search's own rows drive the statement: the other filters are tested on each of them
   * rather than used to walk an index (SQLite: a rare text, see sqlite/search-plan.ts).
   */
  drivenBySearch?: boolean;
}

/**
 * Which entries a search reads (SQLite, sqlite/search-window.ts): only those whose rowid is in
 * [`fromRowid`, `toRowid`] hold the text, and only those from `fromId` on are candidates. The
 * window always covers every entry the rest of the filter could answer, so it changes the work,
 * never the answer.
 */
export interface SearchWindow {
  fromRowid?: number | undefined;
  toRowid?: number | undefined;
  fromId?: string | undefined;
}

/**
 * The WHERE clause and its parameters for one webhook's page or count: the filters all hold at
 * once, and an unused filter is left out of the SQL (so each combination is one statement).
 */
export function deliveryFilter(
  dialect: DeliveryDialect,
  uid: string,
  before: string | null,
  only: DeliveryPageFilter,
  window?: SearchWindow,
): { where: string; params: unknown[] } {
  const params: unknown[] = [uid];
  const bind: Bind = (value) => `$${params.push(value)}`;
  // A unary + keeps SQLite from walking an index by the column: the search's rows drive instead.
  const driven = dialect.drivenBySearch === true && only.q !== undefined;
  const d = (column: string): string => (driven ? `+d.${column}` : `d.${column}`);
  const parts = [`${d('webhook_uid')} = $1`];
  if (before !== null) parts.push(`${d('id')} < ${bind(before)}`);
  if (only.from !== undefined) {
    // The ID bound first: ids from `from` on start at idFloor, so the index narrows the range.
    parts.push(
      `${d('id')} >= ${bind(idFloor(only.from))}`,
      `${d('received_at')} >= ${bind(only.from)}`,
    );
  }
  if (only.to !== undefined) parts.push(`${d('received_at')} <= ${bind(only.to)}`);
  if (only.labels && only.labels.length > 0) parts.push(dialect.labelIn(bind, only.labels));
  if (only.identity !== undefined) parts.push(`d.identity = ${bind(only.identity)}`);
  if (only.eventType !== undefined) parts.push(`${d('event_type')} = ${bind(only.eventType)}`);
  if (window?.fromId !== undefined) parts.push(`${d('id')} >= ${bind(window.fromId)}`);
  if (only.q !== undefined) parts.push(dialect.holds(bind, only.q, '$1', window));
  return { where: parts.join(' AND '), params };
}
