import type Database from 'better-sqlite3';

export function up(db: Database.Database): void {
  db.exec(`
    CREATE TABLE factories (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      definitions_dir TEXT,
      executor TEXT NOT NULL DEFAULT '{"kind":"record"}',
      created_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE settings (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;

    -- Names and fingerprints only: secret values live in the secret store, never here.
    CREATE TABLE secrets (
      factory_id TEXT NOT NULL REFERENCES factories(id),
      name TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      rotated_at INTEGER,
      PRIMARY KEY (factory_id, name)
    ) STRICT;

    CREATE TABLE webhooks (
      uid TEXT PRIMARY KEY,
      factory_id TEXT NOT NULL REFERENCES factories(id),
      name TEXT NOT NULL,
      auth_mode TEXT NOT NULL CHECK (auth_mode IN ('token', 'url_token', 'signature')),
      signature_scheme TEXT,
      signature_options TEXT,
      secret_name TEXT NOT NULL,
      delivery_id_header TEXT,
      enabled INTEGER NOT NULL DEFAULT 1,
      created_at INTEGER NOT NULL,
      deleted_at INTEGER
    ) STRICT;
    CREATE UNIQUE INDEX webhooks_live_name ON webhooks (factory_id, name) WHERE deleted_at IS NULL;

    CREATE TABLE deliveries (
      id TEXT PRIMARY KEY,
      webhook_uid TEXT NOT NULL,
      label TEXT NOT NULL,
      size INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      identity TEXT,
      identity_source TEXT,
      client_address TEXT,
      reason TEXT,
      duplicate_of TEXT,
      replay_of TEXT
    ) STRICT;
    CREATE INDEX deliveries_by_webhook ON deliveries (webhook_uid, id);
    CREATE INDEX deliveries_by_time ON deliveries (received_at);

    -- Apart from the log rows so that listing deliveries never reads payload pages.
    CREATE TABLE payloads (
      delivery_id TEXT PRIMARY KEY,
      body BLOB NOT NULL
    ) STRICT;

    CREATE TABLE dedupe_keys (
      webhook_uid TEXT NOT NULL,
      identity TEXT NOT NULL,
      delivery_id TEXT NOT NULL,
      accepted_at INTEGER NOT NULL,
      PRIMARY KEY (webhook_uid, identity)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX dedupe_keys_by_age ON dedupe_keys (accepted_at);

    CREATE TABLE automations (
      id TEXT PRIMARY KEY,
      factory_id TEXT NOT NULL REFERENCES factories(id),
      name TEXT NOT NULL,
      prompt TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      triggers TEXT NOT NULL,
      source_file TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      automation_id TEXT NOT NULL,
      delivery_id TEXT NOT NULL,
      webhook_uid TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'interrupted')),
      input TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      started_at INTEGER,
      finished_at INTEGER,
      exit_code INTEGER,
      output TEXT,
      error TEXT,
      rerun_of TEXT
    ) STRICT;
    CREATE INDEX runs_by_status ON runs (status, id);
    CREATE INDEX runs_by_automation ON runs (automation_id, id);
    CREATE INDEX runs_by_delivery ON runs (delivery_id);

    -- Admin API tokens minted through /api/tokens; only a SHA-256 of each value is kept.
    CREATE TABLE api_tokens (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('manage', 'view')),
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER
    ) STRICT;

    CREATE TABLE sessions (
      id_hash TEXT PRIMARY KEY,
      role TEXT NOT NULL CHECK (role IN ('manage', 'view')),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) STRICT;
  `);
}
