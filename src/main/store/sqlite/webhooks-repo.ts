import {
  type WebhookRecord,
  type WebhookRow,
  toRecord,
  type NewWebhook,
  type WebhookChanges,
  type WebhooksRepository,
} from '../webhooks.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

export function createWebhooksRepository(db: Db): Sync<WebhooksRepository> {
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
