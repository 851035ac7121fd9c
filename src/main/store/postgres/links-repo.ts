import {
  ARRIVED_SINCE,
  LIVE_LINKS,
  RECLAIM_FAILED,
  toLinkRecord,
  type LinkRow,
  type LinksRepository,
} from '../links.js';
import type { Queryable } from './client.js';

/** links-repo.ts on PostgreSQL: links and the recovery ledger, shared by every replica. */
export function createPostgresLinksRepository(q: Queryable): LinksRepository {
  const count = async (text: string, values: unknown[]): Promise<number> => {
    const { rows } = await q.query<{ n: string }>(text, values);
    return Number(rows[0]?.n ?? 0);
  };
  return {
    get: async (webhookUid) => {
      const { rows } = await q.query<LinkRow>(
        'SELECT * FROM provider_links WHERE webhook_uid = $1',
        [webhookUid],
      );
      return rows[0] ? toLinkRecord(rows[0]) : null;
    },
    live: async () => (await q.query<LinkRow>(LIVE_LINKS)).rows.map(toLinkRecord),
    put: async (link) => {
      await q.query(
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
      );
    },
    remove: async (webhookUid) =>
      ((await q.query('DELETE FROM provider_links WHERE webhook_uid = $1', [webhookUid]))
        .rowCount ?? 0) > 0,
    saveCheck: async (webhookUid, check) => {
      await q.query('UPDATE provider_links SET check_json = $1 WHERE webhook_uid = $2', [
        JSON.stringify(check),
        webhookUid,
      ]);
    },
    saveRecovery: async (webhookUid, recovery, through) => {
      await q.query(
        'UPDATE provider_links SET recovery_json = $1, recovered_through = $2 WHERE webhook_uid = $3',
        [JSON.stringify(recovery), through, webhookUid],
      );
    },
    claimAsk: async (ask) =>
      ((
        await q.query(
          `INSERT INTO link_asks (webhook_uid, provider_delivery_id, identity, event, failed_at,
                                  asked_at, outcome)
           VALUES ($1, $2, $3, $4, $5, $6, 'asking') ${RECLAIM_FAILED}`,
          [
            ask.webhookUid,
            ask.providerDeliveryId,
            ask.identity,
            ask.event,
            ask.failedAt,
            ask.askedAt,
          ],
        )
      ).rowCount ?? 0) > 0,
    settleAsk: async (webhookUid, providerDeliveryId, outcome) => {
      await q.query(
        'UPDATE link_asks SET outcome = $1 WHERE webhook_uid = $2 AND provider_delivery_id = $3',
        [outcome, webhookUid, providerDeliveryId],
      );
    },
    askOutcome: async (webhookUid, providerDeliveryId) => {
      const { rows } = await q.query<{ outcome: 'asking' | 'asked' | 'failed' }>(
        'SELECT outcome FROM link_asks WHERE webhook_uid = $1 AND provider_delivery_id = $2',
        [webhookUid, providerDeliveryId],
      );
      return rows[0]?.outcome ?? null;
    },
    acceptedHere: async (webhookUid, identity) =>
      (await count(
        'SELECT count(*) AS n FROM dedupe_keys WHERE webhook_uid = $1 AND identity = $2',
        [webhookUid, identity],
      )) > 0,
    arrivedSince: (since, webhookUid) =>
      webhookUid === undefined
        ? count(`${ARRIVED_SINCE} WHERE a.asked_at >= $1`, [since])
        : count(`${ARRIVED_SINCE} WHERE a.asked_at >= $1 AND a.webhook_uid = $2`, [
            since,
            webhookUid,
          ]),
    pruneAsks: async (olderThan) =>
      (await q.query('DELETE FROM link_asks WHERE asked_at < $1', [olderThan])).rowCount ?? 0,
  };
}
