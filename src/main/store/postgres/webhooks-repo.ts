import type { GenericHmacOptions } from '../../../shared/signature-schemes.js';
import {
  toRecord,
  type WebhookRow,
  type WebhookRecord,
  type WebhooksRepository,
} from '../webhooks.js';
import type { Queryable } from './client.js';

const COLUMNS = `uid, factory_id, name, auth_mode, signature_scheme, signature_options, secret_name,
  delivery_id_header, event_type_path, enabled, created_at, deleted_at`;

const optionsText = (o: GenericHmacOptions | null): string | null => (o ? JSON.stringify(o) : null);

/** webhooks-repo.ts on PostgreSQL: the same calls, the same records, deleted ones kept. */
export function createPostgresWebhooksRepository(q: Queryable): WebhooksRepository {
  const many = async (sql: string, params: unknown[] = []): Promise<WebhookRecord[]> =>
    (await q.query<WebhookRow>(sql, params)).rows.map(toRecord);
  const one = async (sql: string, params: unknown[]): Promise<WebhookRecord | null> => {
    const { rows } = await q.query<WebhookRow>(sql, params);
    return rows[0] ? toRecord(rows[0]) : null;
  };
  const get = (uid: string): Promise<WebhookRecord | null> =>
    one(`SELECT ${COLUMNS} FROM webhooks WHERE uid = $1`, [uid]);

  return {
    live: () =>
      many(`SELECT ${COLUMNS} FROM webhooks WHERE deleted_at IS NULL ORDER BY created_at, uid`),
    list: (factoryId) =>
      many(
        `SELECT ${COLUMNS} FROM webhooks WHERE factory_id = $1 AND deleted_at IS NULL
         ORDER BY created_at, uid`,
        [factoryId],
      ),
    get,
    findByName: (factoryId, name) =>
      one(
        `SELECT ${COLUMNS} FROM webhooks WHERE factory_id = $1 AND name = $2 AND deleted_at IS NULL`,
        [factoryId, name],
      ),
    countLive: async (factoryId) => {
      const { rows } = await q.query<{ n: number }>(
        'SELECT count(*) AS n FROM webhooks WHERE factory_id = $1 AND deleted_at IS NULL',
        [factoryId],
      );
      return rows[0]!.n;
    },
    usingSecret: (factoryId, secretName) =>
      many(
        `SELECT ${COLUMNS} FROM webhooks
         WHERE factory_id = $1 AND secret_name = $2 AND deleted_at IS NULL ORDER BY name`,
        [factoryId, secretName],
      ),
    insert: async (w) => {
      await q.query(
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
      );
    },
    update: async (uid, changes) => {
      const current = await get(uid);
      if (!current || current.deletedAt !== null) return null;
      const next = { ...current, ...changes };
      // RETURNING: the row as this statement left it, even if another replica writes right after.
      return one(
        `UPDATE webhooks SET name = $2, enabled = $3, delivery_id_header = $4, event_type_path = $5
         WHERE uid = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
        [uid, next.name, next.enabled, next.deliveryIdHeader, next.eventTypePath],
      );
    },
    redefine: async (uid, d) => {
      await q.query(
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
      );
    },
    softDelete: async (uid, at) => {
      const { rowCount } = await q.query(
        'UPDATE webhooks SET deleted_at = $1 WHERE uid = $2 AND deleted_at IS NULL',
        [at, uid],
      );
      return rowCount === 1;
    },
  };
}
