import { idFloor } from '../../../shared/delivery-ids.js';
import type { DeliveryPageFilter } from '../deliveries.js';

/** An FTS5 phrase: the text taken literally (quotes doubled), matched as a substring by trigrams. */
export const ftsPhrase = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/**
 * Rows whose ID, identity, event type, summary or payload holds the text: the index, plus a plain scan of
 * the entries still waiting to be indexed (few: the indexer keeps up between bursts). The scan
 * folds ASCII case only, the index all of Unicode; a non-ASCII word in other case is found once
 * its entry is indexed, a moment later.
 */
const SEARCH_HITS = `
  SELECT rowid FROM delivery_search WHERE delivery_search MATCH @phrase
  UNION ALL
  SELECT s.delivery_rowid FROM delivery_search_pending s
    JOIN deliveries pd ON pd.rowid = s.delivery_rowid
    LEFT JOIN payloads pp ON pp.delivery_id = pd.id
  WHERE instr(lower(pd.id), @needle) > 0 OR instr(lower(coalesce(pd.identity, '')), @needle) > 0
     OR instr(lower(coalesce(pd.event_type, '')), @needle) > 0
     OR instr(lower(coalesce(pd.summary, '')), @needle) > 0
     OR instr(lower(CAST(pp.body AS TEXT)), @needle) > 0`;

export interface QueryShape {
  before: boolean;
  labels: boolean;
  identity: boolean;
  q: boolean;
  eventType: boolean;
  from: boolean;
  to: boolean;
}

export const shapeKey = (shape: QueryShape): string =>
  Object.entries(shape)
    .filter(([, on]) => on)
    .map(([name]) => name)
    .join(',');

/** The WHERE clause for one combination of filters; unused filters are left out of the SQL. */
export function whereClause(shape: QueryShape): string {
  const parts = ['d.webhook_uid = @uid'];
  if (shape.before) parts.push('d.id < @before');
  if (shape.from) parts.push('d.id >= @fromId', 'd.received_at >= @from');
  if (shape.to) parts.push('d.received_at <= @to');
  if (shape.labels) parts.push('d.label IN (SELECT value FROM json_each(@labels))');
  if (shape.identity) parts.push('d.identity = @identity');
  if (shape.eventType) parts.push('d.event_type = @eventType');
  if (shape.q) parts.push(`d.rowid IN (${SEARCH_HITS})`);
  return parts.join(' AND ');
}

export type QueryParams = Record<string, string | number | null>;

export function queryParams(
  uid: string,
  before: string | null,
  only: DeliveryPageFilter,
): { shape: QueryShape; params: QueryParams } {
  const labels = only.labels && only.labels.length > 0 ? only.labels : null;
  const shape: QueryShape = {
    before: before !== null,
    labels: labels !== null,
    identity: only.identity !== undefined,
    q: only.q !== undefined,
    eventType: only.eventType !== undefined,
    from: only.from !== undefined,
    to: only.to !== undefined,
  };
  const params: QueryParams = { uid };
  if (before !== null) params.before = before;
  if (labels) params.labels = JSON.stringify(labels);
  if (only.identity !== undefined) params.identity = only.identity;
  if (only.q !== undefined) {
    params.phrase = ftsPhrase(only.q);
    // SQLite's lower() folds ASCII only; the needle must be folded the same way.
    params.needle = only.q.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
  }
  if (only.eventType !== undefined) params.eventType = only.eventType;
  if (only.from !== undefined) {
    params.from = only.from;
    params.fromId = idFloor(only.from);
  }
  if (only.to !== undefined) params.to = only.to;
  return { shape, params };
}
