import type { GenericHmacOptions } from '../../../shared/signature-schemes.js';
import { toRecord, type WebhookRow, type WebhooksRepository } from '../webhooks.js';
import { one, row, rows, run, type Calls } from './query.js';

const COLUMNS = `uid, factory_id, name, auth_mode, signature_scheme, signature_options, secret_name,
  delivery_id_header, event_type_path, enabled, created_at, deleted_at`;
const SELECT = `SELECT ${COLUMNS} FROM webhooks`;

const optionsText = (o: GenericHmacOptions | null): string | null => (o ? JSON.stringify(o) : null);
const recordOf = (r?: WebhookRow): ReturnType<typeof toRecord> | null => (r ? toRecord(r) : null);

/**
 * The webhooks table's SQL, for both stores; a deleted webhook is kept, marked. `update` is the
 * twins' (it reads the webhook first): they build it from `getCall` and `updateCall`.
 */
export const webhooksCalls: Calls<Omit<WebhooksRepository, 'update'>> = {
  live: () => rows(`${SELECT} WHERE deleted_at IS NULL ORDER BY created_at, uid`, [], toRecord),
  list: (factoryId) =>
    rows(
      `${SELECT} WHERE factory_id = $1 AND deleted_at IS NULL ORDER BY created_at, uid`,
      [factoryId],
      toRecord,
    ),
  get: (uid) => row(`${SELECT} WHERE uid = $1`, [uid], recordOf),
  findByName: (factoryId, name) =>
    row(
      `${SELECT} WHERE factory_id = $1 AND name = $2 AND deleted_at IS NULL`,
      [factoryId, name],
      recordOf,
    ),
  countLive: (factoryId) =>
    row(
      'SELECT count(*) AS n FROM webhooks WHERE factory_id = $1 AND deleted_at IS NULL',
      [factoryId],
      (r?: { n: number }) => Number(r!.n),
    ),
  usingSecret: (factoryId, secretName) =>
    rows(
      `${SELECT} WHERE factory_id = $1 AND secret_name = $2 AND deleted_at IS NULL ORDER BY name`,
      [factoryId, secretName],
      toRecord,
    ),
  insert: (w) =>
    run(
      `INSERT INTO webhooks (uid, factory_id, name, auth_mode, signature_scheme, signature_options,
                             secret_name, delivery_id_header, event_type_path, enabled, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        w.uid,
        w.factoryId,
        w.name,
        w.authMode,
        w.signatureScheme,
        optionsText(w.signatureOptions),
        w.secretName,
        w.deliveryIdHeader,
        w.eventTypePath,
        w.enabled,
        w.createdAt,
      ],
    ),
  redefine: (uid, d) =>
    run(
      `UPDATE webhooks SET auth_mode = $2, signature_scheme = $3, signature_options = $4,
                           secret_name = $5, delivery_id_header = $6, event_type_path = $7,
                           enabled = $8
       WHERE uid = $1 AND deleted_at IS NULL`,
      [
        uid,
        d.authMode,
        d.signatureScheme,
        optionsText(d.signatureOptions),
        d.secretName,
        d.deliveryIdHeader,
        d.eventTypePath,
        d.enabled,
      ],
    ),
  softDelete: (uid, at) =>
    run(
      'UPDATE webhooks SET deleted_at = $1 WHERE uid = $2 AND deleted_at IS NULL',
      [at, uid],
      one,
    ),
};

/**
 * `update`'s write, given the live webhook as it stands merged with the changes: RETURNING the
 * row as this statement left it, even if another relay on the store writes right after.
 */
export const updateCall = (next: ReturnType<typeof toRecord>) =>
  row(
    `UPDATE webhooks SET name = $2, enabled = $3, delivery_id_header = $4, event_type_path = $5
     WHERE uid = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    [next.uid, next.name, next.enabled, next.deliveryIdHeader, next.eventTypePath],
    recordOf,
  );
