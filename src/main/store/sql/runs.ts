import {
  firstRunIdAt,
  RERUNNABLE,
  toRecord,
  type RerunCandidatesFilter,
  type RunRecord,
  type RunRow,
  type RunsRepository,
} from '../runs.js';
import type { Call } from './query.js';
import type { SqlDialect } from './delivery-filter.js';
import { mapCall, row, rows, run, type Calls } from './query.js';

/** A run as the one mapper (runs.ts) reads it, with its automation, webhook and re-runs. */
export const runSelect = (dialect: SqlDialect): string => `
  SELECT r.*, a.name AS automation_name, a.factory_id AS factory_id, w.name AS webhook_name,
    (SELECT ${dialect.commaList('x.id')} FROM runs x WHERE x.rerun_of = r.id) AS rerun_ids,
    (SELECT d.event_type FROM deliveries d WHERE d.id = r.delivery_id) AS event_type
  FROM runs r
  LEFT JOIN automations a ON a.id = r.automation_id
  LEFT JOIN webhooks w ON w.uid = r.webhook_uid`;

/**
 * The runs table's plain reads and writes, for both stores. Claims, finishing, interrupting,
 * inserting and the re-run candidates are the twins' own (leases on PostgreSQL).
 */
export function runsCalls(
  dialect: SqlDialect,
): Calls<
  Pick<
    RunsRepository,
    | 'get'
    | 'page'
    | 'factoriesWithQueuedRuns'
    | 'recordProcess'
    | 'countSince'
    | 'payloadOf'
    | 'eventTypeOf'
  >
> {
  const SELECT = runSelect(dialect);
  return {
    get: (id) => row(`${SELECT} WHERE r.id = $1`, [id], (r?: RunRow) => (r ? toRecord(r) : null)),
    /** Newest first; `before` is the ID of the last run of the previous page. */
    page: (filter) =>
      mapCall(
        rows(
          `${SELECT}
           WHERE (CAST($1 AS TEXT) IS NULL OR r.automation_id = $1)
             AND (CAST($2 AS TEXT) IS NULL OR r.status = $2)
             AND (CAST($3 AS TEXT) IS NULL OR r.id < $3)
           ORDER BY r.id DESC LIMIT $4`,
          [filter.automation, filter.status, filter.before, filter.limit + 1],
          toRecord,
        ),
        (found) => ({
          items: found.slice(0, filter.limit),
          nextBefore: found.length > filter.limit ? found[filter.limit - 1]!.id : null,
        }),
      ),
    factoriesWithQueuedRuns: () =>
      rows(
        `SELECT DISTINCT a.factory_id FROM runs r JOIN automations a ON a.id = r.automation_id
         WHERE r.status = 'queued' ORDER BY 1`,
        [],
        (r: { factory_id: string }) => r.factory_id,
      ),
    /** A `command` run's program has started: where to find it if the relay dies meanwhile. */
    recordProcess: (id, started) =>
      run('UPDATE runs SET process_group = $2, process_started = $3 WHERE id = $1', [
        id,
        started.group,
        started.started,
      ]),
    countSince: (automationId, since) =>
      row(
        'SELECT count(*) AS n FROM runs WHERE automation_id = $1 AND id >= $2',
        [automationId, firstRunIdAt(since)],
        (r?: { n: number }) => Number(r?.n ?? 0),
      ),
    payloadOf: (deliveryId) =>
      row(
        'SELECT body FROM payloads WHERE delivery_id = $1',
        [deliveryId],
        (r?: { body: Buffer }) => r?.body ?? null,
      ),
    /** The delivery's event type (§13), for the executors; null when unknown. */
    eventTypeOf: (deliveryId) =>
      row(
        'SELECT event_type FROM deliveries WHERE id = $1',
        [deliveryId],
        (r?: { event_type: string | null }) => r?.event_type ?? null,
      ),
  };
}

/** Runs of status $1 (of automation $2, or any) from ID $3 on that nothing has re-run yet. */
const NOT_RERUN = `r.status = $1 AND (CAST($2 AS TEXT) IS NULL OR r.automation_id = $2)
  AND r.id >= $3 AND NOT EXISTS (SELECT 1 FROM runs x WHERE x.rerun_of = r.id)`;

/** What a bulk re-run would take (the first `limit`), how many in all, and those it cannot. */
export function rerunCalls(
  dialect: SqlDialect,
  filter: RerunCandidatesFilter,
  limit: number,
): { items: Call<RunRecord[]>; total: Call<number>; cannot: Call<RunRecord[]> } {
  const SELECT = runSelect(dialect);
  const params = [filter.status, filter.automation, firstRunIdAt(filter.since ?? 0)];
  return {
    items: rows(
      `${SELECT} WHERE ${NOT_RERUN} AND ${RERUNNABLE} ORDER BY r.id LIMIT $4`,
      [...params, limit],
      toRecord,
    ),
    total: row(
      `SELECT count(*) AS n FROM runs r LEFT JOIN automations a ON a.id = r.automation_id
       WHERE ${NOT_RERUN} AND ${RERUNNABLE}`,
      params,
      (r?: { n: number }) => Number(r?.n ?? 0),
    ),
    cannot: rows(
      `${SELECT} WHERE ${NOT_RERUN} AND NOT (${RERUNNABLE}) ORDER BY r.id LIMIT $4`,
      [...params, limit],
      toRecord,
    ),
  };
}
