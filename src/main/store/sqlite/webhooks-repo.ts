import type { GenericHmacOptions, SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { AuthMode } from '../../../shared/contract/webhooks.js';
import type { Db } from './db.js';

export interface WebhookRecord {
  uid: string;
  factoryId: string;
  name: string;
  authMode: AuthMode;
  signatureScheme: SignatureSchemeName | null;
  signatureOptions: GenericHmacOptions | null;
  secretName: string;
  deliveryIdHeader: string | null;
  /** Where a token, URL-token or generic-HMAC webhook reads the event type (§13); null: none. */
  eventTypePath: string | null;
  enabled: boolean;
  createdAt: number;
  deletedAt: number | null;
}

export interface WebhookRow {
  uid: string;
  factory_id: string;
  name: string;
  auth_mode: AuthMode;
  signature_scheme: SignatureSchemeName | null;
  signature_options: string | null;
  secret_name: string;
  delivery_id_header: string | null;
  event_type_path: string | null;
  /** SQLite answers 0/1, PostgreSQL a boolean. */
  enabled: number | boolean;
  created_at: number;
  deleted_at: number | null;
}

export const toRecord = (r: WebhookRow): WebhookRecord => ({
  uid: r.uid,
  factoryId: r.factory_id,
  name: r.name,
  authMode: r.auth_mode,
  signatureScheme: r.signature_scheme,
  signatureOptions: r.signature_options
    ? (JSON.parse(r.signature_options) as GenericHmacOptions)
    : null,
  secretName: r.secret_name,
  deliveryIdHeader: r.delivery_id_header,
  eventTypePath: r.event_type_path,
  enabled: r.enabled === 1 || r.enabled === true,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
});

export type NewWebhook = Omit<WebhookRecord, 'deletedAt'>;
export type WebhookChanges = Partial<
  Pick<WebhookRecord, 'name' | 'enabled' | 'deliveryIdHeader' | 'eventTypePath'>
>;

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

export function createWebhooksRepository(db: Db) {
  const live = db.prepare<[], WebhookRow>(
    'SELECT * FROM webhooks WHERE deleted_at IS NULL ORDER BY created_at, uid',
  );
  const liveInFactory = db.prepare<[string], WebhookRow>(
    'SELECT * FROM webhooks WHERE factory_id = ? AND deleted_at IS NULL ORDER BY created_at, uid',
  );
  const one = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE uid = ?');
  const byName = db.prepare<[string, string], WebhookRow>(
    'SELECT * FROM webhooks WHERE factory_id = ? AND name = ? AND deleted_at IS NULL',
  );
  const countLive = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM webhooks WHERE factory_id = ? AND deleted_at IS NULL',
  );
  const usingSecret = db.prepare<[string, string], WebhookRow>(
    'SELECT * FROM webhooks WHERE factory_id = ? AND secret_name = ? AND deleted_at IS NULL ORDER BY name',
  );
  const insert = db.prepare(`
    INSERT INTO webhooks (uid, factory_id, name, auth_mode, signature_scheme, signature_options, secret_name,
                          delivery_id_header, event_type_path, enabled, created_at)
    VALUES (@uid, @factoryId, @name, @authMode, @signatureScheme, @signatureOptions, @secretName,
            @deliveryIdHeader, @eventTypePath, @enabled, @createdAt)`);
  const update = db.prepare(`
    UPDATE webhooks SET name = @name, enabled = @enabled, delivery_id_header = @deliveryIdHeader,
                        event_type_path = @eventTypePath
    WHERE uid = @uid AND deleted_at IS NULL`);
  const redefine = db.prepare(`
    UPDATE webhooks SET auth_mode = @authMode, signature_scheme = @signatureScheme,
                        signature_options = @signatureOptions, secret_name = @secretName,
                        delivery_id_header = @deliveryIdHeader, event_type_path = @eventTypePath,
                        enabled = @enabled
    WHERE uid = @uid AND deleted_at IS NULL`);
  const softDelete = db.prepare(
    'UPDATE webhooks SET deleted_at = ? WHERE uid = ? AND deleted_at IS NULL',
  );

  const get = (uid: string): WebhookRecord | null => {
    const row = one.get(uid);
    return row ? toRecord(row) : null;
  };

  return {
    live: (): WebhookRecord[] => live.all().map(toRecord),
    list: (factoryId: string): WebhookRecord[] => liveInFactory.all(factoryId).map(toRecord),
    get,
    findByName: (factoryId: string, name: string): WebhookRecord | null => {
      const row = byName.get(factoryId, name);
      return row ? toRecord(row) : null;
    },
    countLive: (factoryId: string): number => countLive.get(factoryId)!.n,
    usingSecret: (factoryId: string, secretName: string): WebhookRecord[] =>
      usingSecret.all(factoryId, secretName).map(toRecord),
    insert: (w: NewWebhook): void => {
      insert.run({
        ...w,
        signatureOptions: w.signatureOptions ? JSON.stringify(w.signatureOptions) : null,
        enabled: w.enabled ? 1 : 0,
      });
    },
    update: (uid: string, changes: WebhookChanges): WebhookRecord | null => {
      const current = get(uid);
      if (!current || current.deletedAt !== null) return null;
      const next = { ...current, ...changes };
      update.run({
        uid,
        name: next.name,
        enabled: next.enabled ? 1 : 0,
        deliveryIdHeader: next.deliveryIdHeader,
        eventTypePath: next.eventTypePath,
      });
      return get(uid);
    },
    /** Everything a definition file sets; the name and UID stay (a managed factory never renames). */
    redefine: (
      uid: string,
      d: Pick<
        WebhookRecord,
        | 'authMode'
        | 'signatureScheme'
        | 'signatureOptions'
        | 'secretName'
        | 'deliveryIdHeader'
        | 'eventTypePath'
        | 'enabled'
      >,
    ): void => {
      redefine.run({
        uid,
        ...d,
        signatureOptions: d.signatureOptions ? JSON.stringify(d.signatureOptions) : null,
        enabled: d.enabled ? 1 : 0,
      });
    },
    softDelete: (uid: string, at: number): boolean => softDelete.run(at, uid).changes === 1,
  };
}
