import type { LinkCheck, LinkKind, LinkRecovery } from '../../shared/contract/links.js';

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

/** Provider links (PRODUCT §19) and the recovery ledger. */
export interface LinksRepository {
  get(webhookUid: string): Promise<LinkRecord | null>;
  live(): Promise<LinkRecord[]>;
  put(link: Omit<LinkRecord, 'check' | 'recovery' | 'recoveredThrough'>): Promise<void>;
  remove(webhookUid: string): Promise<boolean>;
  saveCheck(webhookUid: string, check: LinkCheck): Promise<void>;
  saveRecovery(webhookUid: string, recovery: LinkRecovery, through: number | null): Promise<void>;
  /** True when this call claimed the ask; false when a recovery already asked for it (never twice). */
  claimAsk(ask: LinkAsk): Promise<boolean>;
  settleAsk(webhookUid: string, providerDeliveryId: string, outcome: AskOutcome): Promise<void>;
  askOutcome(webhookUid: string, providerDeliveryId: string): Promise<AskOutcome | null>;
  /** Whether a delivery with this identity is Accepted here (within the dedupe window). */
  acceptedHere(webhookUid: string, identity: string): Promise<boolean>;
  /** How many asked deliveries have arrived since `since` (one webhook's, or all). */
  arrivedSince(since: number, webhookUid?: string): Promise<number>;
  pruneAsks(olderThan: number): Promise<number>;
}
