import {
  type LinkRecord,
  type LinkAsk,
  type AskOutcome,
  type LinkRow,
  toLinkRecord,
  LIVE_LINKS,
  ARRIVED_SINCE,
  RECLAIM_FAILED,
  type LinksRepository,
} from '../links.js';
import type { Sync } from '../store.js';
import type { LinkCheck, LinkRecovery } from '../../../shared/contract/links.js';
import type { Db } from './db.js';

/** Provider links (PRODUCT §19) and the recovery ledger, on SQLite. */
export function createLinksRepository(db: Db): Sync<LinksRepository> {
  const one = db.prepare<[string], LinkRow>('SELECT * FROM provider_links WHERE webhook_uid = ?');
  const live = db.prepare<[], LinkRow>(LIVE_LINKS);
  const upsert = db.prepare(`
    INSERT INTO provider_links (webhook_uid, kind, target, token_secret_name, api_base_url,
                                keep_pointed, recover, created_at)
    VALUES (@webhookUid, @kind, @target, @tokenSecretName, @apiBaseUrl, @keepPointed, @recover, @createdAt)
    ON CONFLICT (webhook_uid) DO UPDATE SET kind = excluded.kind, target = excluded.target,
      token_secret_name = excluded.token_secret_name, api_base_url = excluded.api_base_url,
      keep_pointed = excluded.keep_pointed, recover = excluded.recover`);
  const remove = db.prepare('DELETE FROM provider_links WHERE webhook_uid = ?');
  const saveCheck = db.prepare('UPDATE provider_links SET check_json = ? WHERE webhook_uid = ?');
  const saveRecovery = db.prepare(
    'UPDATE provider_links SET recovery_json = ?, recovered_through = ? WHERE webhook_uid = ?',
  );
  const claim = db.prepare(`
    INSERT INTO link_asks (webhook_uid, provider_delivery_id, identity, event, failed_at, asked_at, outcome)
    VALUES (@webhookUid, @providerDeliveryId, @identity, @event, @failedAt, @askedAt, 'asking')
    ${RECLAIM_FAILED}`);
  const settle = db.prepare(
    'UPDATE link_asks SET outcome = ? WHERE webhook_uid = ? AND provider_delivery_id = ?',
  );
  const asked = db.prepare<[string, string], { outcome: AskOutcome }>(
    'SELECT outcome FROM link_asks WHERE webhook_uid = ? AND provider_delivery_id = ?',
  );
  const accepted = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM dedupe_keys WHERE webhook_uid = ? AND identity = ?',
  );
  const arrivedAll = db.prepare<[number], { n: number }>(`${ARRIVED_SINCE} WHERE a.asked_at >= ?`);
  const arrivedOne = db.prepare<[number, string], { n: number }>(
    `${ARRIVED_SINCE} WHERE a.asked_at >= ? AND a.webhook_uid = ?`,
  );
  const prune = db.prepare('DELETE FROM link_asks WHERE asked_at < ?');

  return {
    get: (webhookUid: string): LinkRecord | null => {
      const row = one.get(webhookUid);
      return row ? toLinkRecord(row) : null;
    },
    live: (): LinkRecord[] => live.all().map(toLinkRecord),
    put: (link: Omit<LinkRecord, 'check' | 'recovery' | 'recoveredThrough'>): void => {
      upsert.run({ ...link, keepPointed: link.keepPointed ? 1 : 0, recover: link.recover ? 1 : 0 });
    },
    remove: (webhookUid: string): boolean => remove.run(webhookUid).changes > 0,
    saveCheck: (webhookUid: string, check: LinkCheck): void => {
      saveCheck.run(JSON.stringify(check), webhookUid);
    },
    saveRecovery: (webhookUid: string, recovery: LinkRecovery, through: number | null): void => {
      saveRecovery.run(JSON.stringify(recovery), through, webhookUid);
    },
    /** True when this call claimed the ask; false when a recovery already asked for it (never twice). */
    claimAsk: (ask: LinkAsk): boolean => claim.run(ask).changes > 0,
    settleAsk: (webhookUid: string, providerDeliveryId: string, outcome: AskOutcome): void => {
      settle.run(outcome, webhookUid, providerDeliveryId);
    },
    askOutcome: (webhookUid: string, providerDeliveryId: string): AskOutcome | null =>
      asked.get(webhookUid, providerDeliveryId)?.outcome ?? null,
    /** Whether a delivery with this identity is Accepted here (within the dedupe window). */
    acceptedHere: (webhookUid: string, identity: string): boolean =>
      accepted.get(webhookUid, identity)!.n > 0,
    /** How many asked deliveries have arrived since `since` (one webhook's, or all). */
    arrivedSince: (since: number, webhookUid?: string): number =>
      (webhookUid === undefined ? arrivedAll.get(since) : arrivedOne.get(since, webhookUid))!.n,
    pruneAsks: (olderThan: number): number => prune.run(olderThan).changes,
  };
}
