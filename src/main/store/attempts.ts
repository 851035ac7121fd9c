export type HeaderPairs = Array<[string, string]>;

export interface AttemptRecord {
  id: string;
  deliveryId: string;
  webhookUid: string;
  url: string;
  at: number;
  status: number | null;
  responseHeaders: HeaderPairs;
  responseBody: Buffer;
  bodyTruncated: boolean;
  durationMs: number;
  error: string | null;
  sentBody: Buffer | null;
  signed: boolean;
  requestHeaders: HeaderPairs;
  forwarder: boolean;
  delivered: boolean;
}

/** One attempt row as both stores answer it (flags: SQLite 0/1, PostgreSQL booleans). */
export interface AttemptRow {
  id: string;
  delivery_id: string;
  webhook_uid: string;
  url: string;
  at: number;
  status: number | null;
  response_headers: string;
  response_body: Buffer;
  body_truncated: number | boolean;
  duration_ms: number;
  error: string | null;
  sent_body: Buffer | null;
  signed: number | boolean;
  request_headers: string;
  forwarder: number | boolean;
  delivered: number | boolean;
}

/** Also maps PostgreSQL rows: one mapper, so the two stores cannot drift. */
export const toRecord = (r: AttemptRow): AttemptRecord => ({
  id: r.id,
  deliveryId: r.delivery_id,
  webhookUid: r.webhook_uid,
  url: r.url,
  at: r.at,
  status: r.status,
  responseHeaders: JSON.parse(r.response_headers) as HeaderPairs,
  responseBody: r.response_body,
  bodyTruncated: Boolean(r.body_truncated),
  durationMs: r.duration_ms,
  error: r.error,
  sentBody: r.sent_body,
  signed: Boolean(r.signed),
  requestHeaders: JSON.parse(r.request_headers) as HeaderPairs,
  forwarder: Boolean(r.forwarder),
  delivered: Boolean(r.delivered),
});

/** Forward attempts and the places of `hookport forward` per (webhook, URL). */
export interface AttemptsRepository {
  /** The attempt and, for a delivered forwarder attempt, the URL's new place: one transaction. */
  record(attempt: AttemptRecord): Promise<void>;
  get(id: string): Promise<AttemptRecord | null>;
  /** Newest first. */
  ofDelivery(deliveryId: string): Promise<AttemptRecord[]>;
  /** The last delivery of the webhook `hookport forward` delivered to `url`, if any. */
  place(webhookUid: string, url: string): Promise<string | null>;
}
