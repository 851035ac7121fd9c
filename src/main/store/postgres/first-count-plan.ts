import type { DeliveryPageFilter } from '../deliveries.js';
import { deliveriesCalls } from '../sql/deliveries.js';
import { deliveryFilter, type DeliveryDialect } from '../sql/delivery-filter.js';
import type { Queryable } from './client.js';
import {
  postgresDialect,
  postgresParallelDialect,
  postgresScanDialect,
  scannable,
} from './dialect.js';
import { runCall } from './queries.js';

/**
 * A time range holding at most this many of the webhook's entries (by the other filters) is
 * counted row by row the first time (~30 µs an entry): cheaper than the whole log's trigram
 * candidates of a common text (~23 µs each, tens of thousands), dearer for a rare one.
 */
const ROW_BY_ROW_MOST = 8_000;
/**
 * A first count's newest entries (this many, tested row by row: ~12 ms) tell how common its text
 * is, and so how many trigram candidates the indexes would recheck: a larger range is counted
 * row by row too when they outnumber its entries by CANDIDATE_COST (q + label + last 24 h at
 * 200,000 entries: 8,979 entries row by row in 175–260 ms against 2.9 s for 78,000 candidates).
 */
const PROBE = 400;
/** A candidate's recheck and join against an entry tested row by row (~20 µs against ~30). */
const CANDIDATE_COST = 2 / 3;
/**
 * From this many candidates the hits are joined with the webhook's entries by a hash, not one
 * index probe each (the planner's choice on an estimate of ~12): Tromsø's 78,225 candidates
 * 1.65–1.85 s against 2.27–2.44 s; a rare text's 35–70 ms would take 80–120 ms.
 */
const HASHED_FROM = 10_000;
/**
 * From this share of the probed payloads holding the text, its hashed first count scans every
 * payload instead (dialect.ts, postgresScanDialect): a scan costs about as much as rechecking
 * half of them.
 */
const SCANNED_FROM = 1 / 2;

/** How a first count is read (tests make the figures small). */
export interface FirstCountRule {
  /** A time range with at most this many entries: row by row, without a probe. */
  most: number;
  probe: number;
  hashedFrom: number;
  scannedFrom: number;
}
const FIRST_COUNT: FirstCountRule = {
  most: ROW_BY_ROW_MOST,
  probe: PROBE,
  hashedFrom: HASHED_FROM,
  scannedFrom: SCANNED_FROM,
};

/** Through the indexes, a common text's candidates are rechecked by parallel workers. */
const PARALLEL = { parallel_setup_cost: '0', min_parallel_table_scan_size: '0' };
const HASHED = { ...PARALLEL, enable_nestloop: 'off' };

/** A first count through the indexes: its statement's dialect and planner settings. */
export interface IndexedPlan {
  dialect: DeliveryDialect;
  settings: Readonly<Record<string, string>>;
}
const parallel: IndexedPlan = { dialect: postgresParallelDialect, settings: PARALLEL };
const hashed: IndexedPlan = { dialect: postgresParallelDialect, settings: HASHED };
const scanned: IndexedPlan = { dialect: postgresScanDialect, settings: HASHED };

/** Figures as pool.ts reads them: BIGINT as numbers, NUMERIC as strings. */
type Figure = number | string;

/**
 * How a first count reads: the range's entries one by one (`rows`), or the indexes with the
 * planner settings that join their candidates (PARALLEL, or HASHED for many), a text in most
 * payloads (scannable) with every payload scanned.
 */
export function firstCountPlan(q: Queryable, rule: FirstCountRule = FIRST_COUNT) {
  const unsearched = deliveriesCalls(postgresDialect).count;
  return async (webhookUid: string, only: DeliveryPageFilter): Promise<'rows' | IndexedPlan> => {
    const { q: text, ...rest } = only;
    if (text === undefined) return parallel;
    const inRange = only.from === undefined ? null : await runCall(q, unsearched(webhookUid, rest));
    if (inRange !== null && inRange <= rule.most) return 'rows';
    // The newest entries tell how common the text is; the log's payloads (the planner's figure:
    // an estimate is enough here) how many candidates the indexes would then recheck.
    const { where, params } = deliveryFilter(postgresDialect, webhookUid, null, rest);
    const bind = (value: unknown): string => `$${params.push(value)}`;
    const holds = postgresDialect.holds(bind, text, '$1', {});
    const { rows } = await q.query<{
      hits: Figure;
      n: Figure;
      payloads: Figure;
      log: number | null;
    }>(
      `SELECT count(*) FILTER (WHERE ${holds}) AS hits, count(*) AS n,
         count(*) FILTER (WHERE EXISTS (SELECT FROM payloads p WHERE p.delivery_id = d.id))
           AS payloads,
         (SELECT reltuples FROM pg_class WHERE oid = 'payloads'::regclass) AS log
       FROM (SELECT * FROM deliveries d WHERE ${where} ORDER BY d.id DESC LIMIT ${rule.probe}) d`,
      params,
    );
    const probe = rows[0]!;
    const hits = Number(probe.hits);
    const candidates = (hits / Math.max(Number(probe.n), 1)) * (probe.log ?? 0);
    if (inRange !== null && inRange < candidates * CANDIDATE_COST) return 'rows';
    if (candidates < rule.hashedFrom) return parallel;
    // Of the probed entries, those with no payload (refused, duplicates: 40 % of the benchmark's)
    // tell nothing of the payloads' share.
    const common = hits >= rule.scannedFrom * Number(probe.payloads);
    return common && scannable(text) ? scanned : hashed;
  };
}
