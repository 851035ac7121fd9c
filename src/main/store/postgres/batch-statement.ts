import type { BatchItem } from '../delivery-batch.js';
import { replayReason } from '../batch-records.js';
import { signatureClaim, type SignatureClaim } from '../signature-claims.js';
import { headersJson } from '../request-headers.js';

/**
 * The most items a batch statement takes: two bind parameters per payload, and PostgreSQL
 * allows 65,535 in a statement.
 */
export const MAX_BATCH_ITEMS = 10_000;

/** What the statement answers for each item, in batch order. */
export interface DecidedRow {
  label: string;
  duplicate_of: string | null;
}

/** A claim of an identity, in batch order: the statement keeps the first one of each that stands. */
interface IdentityClaim {
  webhookUid: string;
  identity: string;
  deliveryId: string;
  receivedAt: number;
}

/**
 * How a claim's rows meet the unique key, in one order (byte order of uid, identity) for every
 * replica: a key older than the window ($5) is taken over, a live one stays its holder's; either
 * way the row comes back with its holder.
 */
const CLAIM_IN_KEY_ORDER = `
    ORDER BY webhook_uid COLLATE "C", identity COLLATE "C"
    ON CONFLICT (webhook_uid, identity) DO UPDATE SET
      delivery_id = CASE WHEN dedupe_keys.accepted_at <= excluded.accepted_at - $5::bigint
                         THEN excluded.delivery_id ELSE dedupe_keys.delivery_id END,
      accepted_at = CASE WHEN dedupe_keys.accepted_at <= excluded.accepted_at - $5::bigint
                         THEN excluded.accepted_at ELSE dedupe_keys.accepted_at END
    RETURNING webhook_uid, identity, delivery_id AS holder`;

/**
 * The dedupe claims, then every item decided against them. The unique key decides, never a read
 * before the write: INSERT … ON CONFLICT waits for a concurrent transaction holding the same key
 * to end, so of two replicas committing one identity at the same moment exactly one takes it.
 * DO UPDATE (rather than DO NOTHING) returns the key's row either way, with its holder: the
 * batch's own delivery, an earlier one, or this one taking over a key older than the window.
 * Keys are claimed in one order (byte order of uid, identity) by every replica, so two batches
 * sharing keys queue behind each other instead of deadlocking; signature keys (signature-claims.ts)
 * all before identities, and an item whose signature another delivery holds claims no identity
 * (a replay must not take the new identity it names from the delivery that will really carry it).
 */
const DECIDE = `
  signatures AS (
    SELECT * FROM unnest($26::text[], $27::text[], $28::text[], $29::bigint[])
      WITH ORDINALITY AS s (webhook_uid, identity, delivery_id, accepted_at, n)),
  signature_claims AS (
    INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
    SELECT webhook_uid, identity, delivery_id, accepted_at FROM (
      SELECT DISTINCT ON (webhook_uid, identity) * FROM signatures
      ORDER BY webhook_uid, identity, n) AS first_seen
    ${CLAIM_IN_KEY_ORDER}),
  replayed AS (
    SELECT s.delivery_id, c.holder FROM signatures s
    JOIN signature_claims c ON c.webhook_uid = s.webhook_uid AND c.identity = s.identity
    WHERE c.holder <> s.delivery_id),
  claims AS (
    INSERT INTO dedupe_keys (webhook_uid, identity, delivery_id, accepted_at)
    SELECT webhook_uid, identity, delivery_id, accepted_at FROM (
      -- The first of each identity that is not a replayed signature: a replay names no key.
      SELECT DISTINCT ON (webhook_uid, identity) * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
        WITH ORDINALITY AS c (webhook_uid, identity, delivery_id, accepted_at, n)
      WHERE c.delivery_id NOT IN (SELECT delivery_id FROM replayed)
      ORDER BY webhook_uid, identity, n) AS first_claims
    ${CLAIM_IN_KEY_ORDER}),
  entries AS (
    SELECT e.*,
      CASE WHEN e.kind = 'reject' THEN e.rejected_as
           WHEN e.kind = 'replay' THEN 'Accepted'
           WHEN r.holder IS NULL AND c.holder = e.id THEN 'Accepted'
           ELSE 'Duplicate' END AS label,
      CASE WHEN e.kind = 'accept'
           THEN COALESCE(r.holder, CASE WHEN c.holder <> e.id THEN c.holder END) END AS duplicate_of
    FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::bigint[], $11::bigint[],
                $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
                $18::text[], $19::text[], $20::text[], $21::text[])
      WITH ORDINALITY AS e (id, webhook_uid, kind, rejected_as, size, received_at, identity,
                            identity_source, client_address, reason, replay_of, event_type,
                            method, path, headers, summary, n)
    LEFT JOIN claims c
      ON e.kind = 'accept' AND c.webhook_uid = e.webhook_uid AND c.identity = e.identity
    LEFT JOIN replayed r ON e.kind = 'accept' AND r.delivery_id = e.id)`;

/** The log rows, the requests they came from, and the runs of the accepted ones. */
const WRITE = `
  logged AS (
    INSERT INTO deliveries (id, webhook_uid, label, size, received_at, identity, identity_source,
                            client_address, reason, duplicate_of, replay_of, event_type,
                            summary)
    SELECT id, webhook_uid, label, size, received_at, identity, identity_source, client_address,
           CASE WHEN label = 'Duplicate' THEN NULL ELSE reason END, duplicate_of, replay_of,
           event_type, CASE WHEN label = 'Accepted' THEN summary END
    FROM entries),
  requests AS (
    INSERT INTO request_contexts (delivery_id, method, path, headers)
    SELECT id, method, path, headers FROM entries WHERE method IS NOT NULL),
  queued AS (
    INSERT INTO runs (id, automation_id, delivery_id, webhook_uid, status, input, created_at)
    SELECT r.id, r.automation_id, e.id, e.webhook_uid, 'queued', r.input, e.received_at
    FROM unnest($22::text[], $23::text[], $24::text[], $25::text[])
      AS r (id, automation_id, delivery_id, input)
    JOIN entries e ON e.id = r.delivery_id AND e.label = 'Accepted')`;

const FIRST_PAYLOAD_PARAMETER = 30;

/**
 * Bodies as binary parameters (bytea travels byte for byte, no hex text in between), stored for
 * the accepted entries only.
 */
function storePayloads(count: number): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const at = FIRST_PAYLOAD_PARAMETER + 2 * i;
    return `($${at}, $${at + 1}::bytea)`;
  });
  return `,
  stored AS (
    INSERT INTO payloads (delivery_id, body)
    SELECT b.id, b.body FROM (VALUES ${rows.join(', ')}) AS b (id, body)
    JOIN entries e ON e.id = b.id AND e.label = 'Accepted')`;
}

/**
 * A whole batch as one statement, so one round trip: its data-modifying CTEs share the
 * statement's own transaction, which with synchronous_commit=on is durable when the answer
 * arrives. Answers one `DecidedRow` per item, in batch order.
 */
export function batchStatement(
  batch: BatchItem[],
  dedupeWindowMs: number,
): { text: string; values: unknown[] } {
  if (batch.length > MAX_BATCH_ITEMS) {
    throw new Error(`a batch statement takes at most ${MAX_BATCH_ITEMS} items`);
  }
  const claims = firstClaims(batch);
  const entries = batch.map(entryColumns);
  const accepts = batch.flatMap((p) => (p.kind === 'accept' ? [p.item] : []));
  const runs = accepts.flatMap((item) => item.runs.map((run) => ({ ...run, deliveryId: item.id })));
  const values: unknown[] = [
    claims.map((c) => c.webhookUid),
    claims.map((c) => c.identity),
    claims.map((c) => c.deliveryId),
    claims.map((c) => c.receivedAt),
    dedupeWindowMs,
    ...columns(entries),
    runs.map((r) => r.id),
    runs.map((r) => r.automationId),
    runs.map((r) => r.deliveryId),
    runs.map((r) => r.input),
    ...signatureColumns(accepts.flatMap((item) => signatureClaim(item, dedupeWindowMs) ?? [])),
    ...accepts.flatMap((item) => [item.id, item.body]),
  ];
  const payloads = accepts.length > 0 ? storePayloads(accepts.length) : '';
  return {
    text: `WITH ${DECIDE},${WRITE}${payloads}\nSELECT label, duplicate_of FROM entries ORDER BY n`,
    values,
  };
}

/** Every accept item's claim: which one stands is the statement's to say (a replay may not). */
function firstClaims(batch: BatchItem[]): IdentityClaim[] {
  const claims: IdentityClaim[] = [];
  for (const { kind, item } of batch) {
    if (kind !== 'accept' || item.replayOf) continue;
    claims.push({
      webhookUid: item.webhookUid,
      identity: item.identity,
      deliveryId: item.id,
      receivedAt: item.receivedAt,
    });
  }
  return claims;
}

/** $6 … $21 of one item, in the order `entries` unnests them. */
function entryColumns(pending: BatchItem): unknown[] {
  const { item } = pending;
  const request = item.request;
  return [
    item.id,
    item.webhookUid,
    ...(pending.kind === 'reject'
      ? ['reject', pending.item.label, pending.item.size]
      : [pending.item.replayOf ? 'replay' : 'accept', null, pending.item.body.length]),
    item.receivedAt,
    item.identity,
    item.identitySource,
    item.clientAddress,
    pending.kind === 'reject' ? pending.item.reason : replayReason(pending.item.replayOf),
    pending.kind === 'reject' ? null : (pending.item.replayOf ?? null),
    item.eventType,
    request?.method ?? null,
    request?.path ?? null,
    request ? headersJson(request.headers) : null,
    pending.kind === 'reject' ? null : (pending.item.summary ?? null),
  ];
}

/** Rows of columns to columns of values: one array parameter per column. */
function columns(rows: unknown[][]): unknown[][] {
  const width = rows[0]?.length ?? 16;
  return Array.from({ length: width }, (_, i) => rows.map((row) => row[i]));
}

/** $26 … $29: every signature claim, in batch order (the statement keeps the first of each key). */
function signatureColumns(claims: SignatureClaim[]): unknown[][] {
  return [
    claims.map((c) => c.webhookUid),
    claims.map((c) => c.identity),
    claims.map((c) => c.deliveryId),
    claims.map((c) => c.acceptedAt),
  ];
}
