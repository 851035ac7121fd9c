/**
 * Schema version 13, the same SQL on SQLite and PostgreSQL (BIGINT is INTEGER to SQLite).
 * `link_asks` is the recovery's own ledger: one row per provider delivery it asked the provider
 * to send again, written before it asks (so a relay killed mid-recovery never asks twice), and
 * what marks an Accepted entry with the same identity `recovered`.
 */
export const PROVIDER_LINKS_SQL = `
  CREATE TABLE provider_links (
    webhook_uid TEXT PRIMARY KEY REFERENCES webhooks (uid),
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    token_secret_name TEXT NOT NULL,
    api_base_url TEXT NOT NULL,
    keep_pointed BOOLEAN NOT NULL,
    recover BOOLEAN NOT NULL,
    check_json TEXT,
    recovery_json TEXT,
    recovered_through BIGINT,
    created_at BIGINT NOT NULL
  );
  CREATE TABLE link_asks (
    webhook_uid TEXT NOT NULL,
    provider_delivery_id TEXT NOT NULL,
    identity TEXT NOT NULL,
    event TEXT,
    failed_at BIGINT NOT NULL,
    asked_at BIGINT NOT NULL,
    outcome TEXT NOT NULL,
    PRIMARY KEY (webhook_uid, provider_delivery_id)
  );
  CREATE INDEX link_asks_by_identity ON link_asks (webhook_uid, identity, asked_at);
  CREATE INDEX link_asks_by_age ON link_asks (asked_at);
`;
