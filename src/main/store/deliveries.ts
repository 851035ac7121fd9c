import type { DeliveryLabel } from '../../shared/labels.js';
import type { RequestContext } from './delivery-batch.js';
import { shownSize } from './item-bounds.js';

export type IdentitySource =
  'delivery-id-header' | 'provider-header' | 'x-service-delivery-id' | 'body-sha256';

export interface DeliveryRecord {
  id: string;
  webhookUid: string;
  label: DeliveryLabel;
  size: number;
  receivedAt: number;
  identity: string | null;
  identitySource: IdentitySource | null;
  clientAddress: string | null;
  reason: string | null;
  duplicateOf: string | null;
  replayOf: string | null;
  /** Derived when the delivery was received; null when unknown. */
  eventType: string | null;
  /** One line about the payload (PRODUCT.md §22); null when none was derived. */
  summary: string | null;
  runIds: string[];
  /** Brought by a provider link's recovery (links-repo.ts); read only, never written here. */
  recovered?: boolean;
}

/** One log row as both stores read it (postgres/deliveries-repo.ts selects the same columns). */
export interface DeliveryRow {
  id: string;
  webhook_uid: string;
  label: DeliveryLabel;
  size: number;
  received_at: number;
  identity: string | null;
  identity_source: IdentitySource | null;
  client_address: string | null;
  reason: string | null;
  duplicate_of: string | null;
  replay_of: string | null;
  event_type: string | null;
  summary: string | null;
  run_ids: string | null;
  recovered?: number | boolean | null;
}

/** Also maps PostgreSQL rows: one mapper, so the two stores cannot drift. */
export const toRecord = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  webhookUid: r.webhook_uid,
  label: r.label,
  size: shownSize(r.size),
  receivedAt: r.received_at,
  identity: r.identity,
  identitySource: r.identity_source,
  clientAddress: r.client_address,
  reason: r.reason,
  duplicateOf: r.duplicate_of,
  replayOf: r.replay_of,
  eventType: r.event_type,
  summary: r.summary,
  runIds: r.run_ids ? r.run_ids.split(',') : [],
  ...(r.recovered === undefined ? {} : { recovered: Boolean(r.recovered) }),
});

/** An Accepted entry whose identity a provider link's recovery asked for before it arrived. */
export const RECOVERED_COLUMN = `
  (d.label = 'Accepted' AND EXISTS (SELECT 1 FROM link_asks a WHERE a.webhook_uid = d.webhook_uid
     AND a.identity = d.identity AND a.asked_at <= d.received_at)) AS recovered`;

/** What a page of the log may be narrowed by (PRODUCT.md §14). All of them hold at once. */
export interface DeliveryPageFilter {
  /** Any of these labels; empty or absent: every label. */
  labels?: readonly DeliveryLabel[] | undefined;
  /** Exactly this identity. */
  identity?: string | undefined;
  /** A substring (at least 3 characters) of the ID, identity, event type, summary or payload text. */
  q?: string | undefined;
  eventType?: string | undefined;
  /** Received at or after, epoch ms. */
  from?: number | undefined;
  /** Received at or before, epoch ms. */
  to?: number | undefined;
}

export const MIN_SEARCH_LENGTH = 3;

/** The read side of the delivery log; writes go through the delivery writer only. */
export interface DeliveriesRepository {
  /** Newest first; `before` is the ID of the last row of the previous page. */
  page(
    webhookUid: string,
    limit: number,
    before: string | null,
    only?: DeliveryPageFilter,
  ): Promise<{ items: DeliveryRecord[]; nextBefore: string | null }>;
  /**
   * How many entries match, on every page (no `before`). `gone`: its asker left; a store may stop
   * a long count then (PostgreSQL's first count of a common text) and reject.
   */
  count(webhookUid: string, only?: DeliveryPageFilter, gone?: AbortSignal): Promise<number>;
  get(id: string): Promise<DeliveryRecord | null>;
  payload(id: string): Promise<Buffer | null>;
  /** Null for entries written before request contexts were kept ("not recorded"). */
  requestContext(id: string): Promise<RequestContext | null>;
  countSince(since: number): Promise<number>;
  /**
   * Counts by webhook, hour (0 = the hour starting at `since`, a whole minute) and label, for a
   * factory.
   */
  activitySince(
    factoryId: string,
    since: number,
  ): Promise<Array<{ uid: string; hour: number; label: DeliveryLabel; n: number }>>;
  /**
   * Counts by bucket (0 = the one starting at `since`, a whole minute; buckets of whole minutes)
   * and label, for one webhook.
   */
  volumeSince(
    webhookUid: string,
    since: number,
    bucketMs: number,
  ): Promise<Array<{ bucket: number; label: DeliveryLabel; n: number }>>;
  latestAt(webhookUid: string): Promise<number | null>;
}
