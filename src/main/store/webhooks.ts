import type { GenericHmacOptions, SignatureSchemeName } from '../../shared/signature-schemes.js';
import type { AuthMode } from '../../shared/contract/webhooks.js';

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

/** What a definition file sets; the name and UID stay (a managed factory never renames). */
export type WebhookDefinition = Pick<
  WebhookRecord,
  | 'authMode'
  | 'signatureScheme'
  | 'signatureOptions'
  | 'secretName'
  | 'deliveryIdHeader'
  | 'eventTypePath'
  | 'enabled'
>;

/** Webhooks; a deleted one is kept (its log outlives it), marked `deletedAt`. */
export interface WebhooksRepository {
  live(): Promise<WebhookRecord[]>;
  list(factoryId: string): Promise<WebhookRecord[]>;
  get(uid: string): Promise<WebhookRecord | null>;
  findByName(factoryId: string, name: string): Promise<WebhookRecord | null>;
  countLive(factoryId: string): Promise<number>;
  usingSecret(factoryId: string, secretName: string): Promise<WebhookRecord[]>;
  insert(w: NewWebhook): Promise<void>;
  /** The webhook as the change left it; null when there is no live webhook of that UID. */
  update(uid: string, changes: WebhookChanges): Promise<WebhookRecord | null>;
  /** Everything a definition file sets; the name and UID stay (a managed factory never renames). */
  redefine(uid: string, d: WebhookDefinition): Promise<void>;
  softDelete(uid: string, at: number): Promise<boolean>;
}
