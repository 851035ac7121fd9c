import { toLinkRecord, type AskOutcome, type LinkRow, type LinksRepository } from '../links.js';
import { row, rows, run, some, type Calls } from './query.js';

/** Asks whose identity has since been Accepted here: what a recovery brought. */
const ARRIVED_SINCE = `
  SELECT count(*) AS n FROM link_asks a
  JOIN dedupe_keys k ON k.webhook_uid = a.webhook_uid AND k.identity = a.identity
                    AND k.accepted_at >= a.asked_at`;

const count = (r?: { n: number | string }): number => Number(r?.n ?? 0);

/** Provider links (PRODUCT §19) and the recovery ledger: the SQL for both stores. */
export const linksCalls: Calls<LinksRepository> = {
  get: (webhookUid) =>
    row('SELECT * FROM provider_links WHERE webhook_uid = $1', [webhookUid], (r?: LinkRow) =>
      r ? toLinkRecord(r) : null,
    ),
  // Live webhooks' links only: a deleted webhook's link is never kept pointed or recovered.
  live: () =>
    rows(
      `SELECT l.* FROM provider_links l JOIN webhooks w ON w.uid = l.webhook_uid
       WHERE w.deleted_at IS NULL ORDER BY l.webhook_uid`,
      [],
      toLinkRecord,
    ),
  put: (link) =>
    run(
      `INSERT INTO provider_links (webhook_uid, kind, target, token_secret_name, api_base_url,
                                   keep_pointed, recover, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (webhook_uid) DO UPDATE SET kind = excluded.kind, target = excluded.target,
         token_secret_name = excluded.token_secret_name, api_base_url = excluded.api_base_url,
         keep_pointed = excluded.keep_pointed, recover = excluded.recover`,
      [
        link.webhookUid,
        link.kind,
        link.target,
        link.tokenSecretName,
        link.apiBaseUrl,
        link.keepPointed,
        link.recover,
        link.createdAt,
      ],
    ),
  remove: (webhookUid) =>
    run('DELETE FROM provider_links WHERE webhook_uid = $1', [webhookUid], some),
  saveCheck: (webhookUid, check) =>
    run('UPDATE provider_links SET check_json = $1 WHERE webhook_uid = $2', [
      JSON.stringify(check),
      webhookUid,
    ]),
  saveRecovery: (webhookUid, recovery, through) =>
    run(
      'UPDATE provider_links SET recovery_json = $1, recovered_through = $2 WHERE webhook_uid = $3',
      [JSON.stringify(recovery), through, webhookUid],
    ),
  // A claim wins once; an ask the provider refused may be claimed again by a later recovery.
  claimAsk: (ask) =>
    run(
      `INSERT INTO link_asks (webhook_uid, provider_delivery_id, identity, event, failed_at,
                              asked_at, outcome)
       VALUES ($1, $2, $3, $4, $5, $6, 'asking')
       ON CONFLICT (webhook_uid, provider_delivery_id) DO UPDATE
       SET outcome = 'asking', asked_at = excluded.asked_at WHERE link_asks.outcome = 'failed'`,
      [ask.webhookUid, ask.providerDeliveryId, ask.identity, ask.event, ask.failedAt, ask.askedAt],
      some,
    ),
  settleAsk: (webhookUid, providerDeliveryId, outcome) =>
    run('UPDATE link_asks SET outcome = $1 WHERE webhook_uid = $2 AND provider_delivery_id = $3', [
      outcome,
      webhookUid,
      providerDeliveryId,
    ]),
  askOutcome: (webhookUid, providerDeliveryId) =>
    row(
      'SELECT outcome FROM link_asks WHERE webhook_uid = $1 AND provider_delivery_id = $2',
      [webhookUid, providerDeliveryId],
      (r?: { outcome: AskOutcome }) => r?.outcome ?? null,
    ),
  acceptedHere: (webhookUid, identity) =>
    row(
      'SELECT count(*) AS n FROM dedupe_keys WHERE webhook_uid = $1 AND identity = $2',
      [webhookUid, identity],
      (r?: { n: number }) => count(r) > 0,
    ),
  arrivedSince: (since, webhookUid) =>
    webhookUid === undefined
      ? row(`${ARRIVED_SINCE} WHERE a.asked_at >= $1`, [since], count)
      : row(
          `${ARRIVED_SINCE} WHERE a.asked_at >= $1 AND a.webhook_uid = $2`,
          [since, webhookUid],
          count,
        ),
  pruneAsks: (olderThan) =>
    run('DELETE FROM link_asks WHERE asked_at < $1', [olderThan], (changes) => changes),
};
