import type { LinkCheck, LinkKind, LinkRecovery } from '../../../shared/contract/links.js';
import type { Db } from './db.js';

export interface LinkRecord {
  webhookUid: string;
  kind: LinkKind;
  target: string;
  tokenSecretName: string;
  apiBaseUrl: string;
  keepPointed: boolean;
  recover: boolean;
  check: LinkCheck | null;
  recovery: LinkRecovery | null;
  /** Where the next recovery's window starts: when the last finished one began listing. */
  recoveredThrough: number | null;
  createdAt: number;
}

/** One failed provider delivery a recovery asks for, claimed before the provider is asked. */
export interface LinkAsk {
  webhookUid: string;
  providerDeliveryId: string;
  /** What the relay's ingress will see as the redelivery's identity (its dedupe key). */
  identity: string;
  event: string | null;
  failedAt: number;
  askedAt: number;
}

export type AskOutcome = 'asking' | 'asked' | 'failed';

/** provider_links as both stores read it. */
export interface LinkRow {
  webhook_uid: string;
  kind: LinkKind;
  target: string;
  token_secret_name: string;
  api_base_url: string;
  keep_pointed: number | boolean;
  recover: number | boolean;
  check_json: string | null;
  recovery_json: string | null;
  recovered_through: number | string | null;
  created_at: number | string;
}

/** One mapper for both stores, so they cannot drift. */
export const toLinkRecord = (r: LinkRow): LinkRecord => ({
  webhookUid: r.webhook_uid,
  kind: r.kind,
  target: r.target,
  tokenSecretName: r.token_secret_name,
  apiBaseUrl: r.api_base_url,
  keepPointed: Boolean(r.keep_pointed),
  recover: Boolean(r.recover),
  check: r.check_json === null ? null : (JSON.parse(r.check_json) as LinkCheck),
  recovery: r.recovery_json === null ? null : (JSON.parse(r.recovery_json) as LinkRecovery),
  recoveredThrough: r.recovered_through === null ? null : Number(r.recovered_through),
  createdAt: Number(r.created_at),
});

/** Live webhooks' links only: a deleted webhook's link is never kept pointed or recovered. */
export const LIVE_LINKS = `
  SELECT l.* FROM provider_links l JOIN webhooks w ON w.uid = l.webhook_uid
  WHERE w.deleted_at IS NULL ORDER BY l.webhook_uid`;

/** Asks whose identity has since been Accepted here: what a recovery brought. */
export const ARRIVED_SINCE = `
  SELECT count(*) AS n FROM link_asks a
  JOIN dedupe_keys k ON k.webhook_uid = a.webhook_uid AND k.identity = a.identity
                    AND k.accepted_at >= a.asked_at`;

/** A claim wins once; an ask the provider refused may be claimed again by a later recovery. */
export const RECLAIM_FAILED = `
  ON CONFLICT (webhook_uid, provider_delivery_id) DO UPDATE
  SET outcome = 'asking', asked_at = excluded.asked_at WHERE link_asks.outcome = 'failed'`;

export type LinksRepository = ReturnType<typeof createLinksRepository>;

/** Provider links (PRODUCT §19) and the recovery ledger, on SQLite. */
export function createLinksRepository(db: Db) {
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
