/**
 * Version 1 on PostgreSQL: SQLite's 001-initial, table for table and column for column, in
 * PostgreSQL's types (BIGINT milliseconds, BOOLEAN flags, BYTEA payloads; JSON stays TEXT so it
 * reads back byte for byte). Keys that are sorted or compared as ranges (ULID ids, names) are
 * COLLATE "C": byte order, as in SQLite, whatever the database's default collation.
 * Then what only replicas need: run leases, shared rate-limit grants, secret values.
 */
export const initial = `
  CREATE TABLE factories (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT NOT NULL,
    definitions_dir TEXT,
    executor TEXT NOT NULL DEFAULT '{"kind":"record"}',
    created_at BIGINT NOT NULL
  );

  CREATE TABLE settings (
    key TEXT COLLATE "C" PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- Names and fingerprints only: values are in secret_values, encrypted.
  CREATE TABLE secrets (
    factory_id TEXT COLLATE "C" NOT NULL REFERENCES factories(id),
    name TEXT COLLATE "C" NOT NULL,
    fingerprint TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    rotated_at BIGINT,
    PRIMARY KEY (factory_id, name)
  );

  CREATE TABLE webhooks (
    uid TEXT COLLATE "C" PRIMARY KEY,
    factory_id TEXT COLLATE "C" NOT NULL REFERENCES factories(id),
    name TEXT COLLATE "C" NOT NULL,
    auth_mode TEXT NOT NULL CHECK (auth_mode IN ('token', 'url_token', 'signature')),
    signature_scheme TEXT,
    signature_options TEXT,
    secret_name TEXT COLLATE "C" NOT NULL,
    delivery_id_header TEXT,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
  );
  CREATE UNIQUE INDEX webhooks_live_name ON webhooks (factory_id, name) WHERE deleted_at IS NULL;

  CREATE TABLE deliveries (
    id TEXT COLLATE "C" PRIMARY KEY,
    webhook_uid TEXT COLLATE "C" NOT NULL,
    label TEXT NOT NULL,
    size BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    identity TEXT COLLATE "C",
    identity_source TEXT,
    client_address TEXT,
    reason TEXT,
    duplicate_of TEXT COLLATE "C",
    replay_of TEXT COLLATE "C"
  );
  CREATE INDEX deliveries_by_webhook ON deliveries (webhook_uid, id);
  CREATE INDEX deliveries_by_time ON deliveries (received_at);

  -- Apart from the log rows so that listing deliveries never reads payload pages.
  CREATE TABLE payloads (
    delivery_id TEXT COLLATE "C" PRIMARY KEY,
    body BYTEA NOT NULL
  );
  -- lz4 where the server has it (PostgreSQL 14+ built --with-lz4, as Debian's and most are):
  -- pglz, the default, costs the one backend writing a batch several times the CPU.
  DO $lz4$ BEGIN
    ALTER TABLE payloads ALTER COLUMN body SET COMPRESSION lz4;
  EXCEPTION WHEN feature_not_supported THEN NULL;
  END $lz4$;

  -- The primary key is the dedupe: INSERT … ON CONFLICT decides which replica's delivery is
  -- Accepted, never a read followed by a write.
  CREATE TABLE dedupe_keys (
    webhook_uid TEXT COLLATE "C" NOT NULL,
    identity TEXT COLLATE "C" NOT NULL,
    delivery_id TEXT COLLATE "C" NOT NULL,
    accepted_at BIGINT NOT NULL,
    PRIMARY KEY (webhook_uid, identity)
  );
  CREATE INDEX dedupe_keys_by_age ON dedupe_keys (accepted_at);

  CREATE TABLE automations (
    id TEXT COLLATE "C" PRIMARY KEY,
    factory_id TEXT COLLATE "C" NOT NULL REFERENCES factories(id),
    name TEXT COLLATE "C" NOT NULL,
    prompt TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT TRUE,
    triggers TEXT NOT NULL,
    source_file TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  );

  CREATE TABLE runs (
    id TEXT COLLATE "C" PRIMARY KEY,
    automation_id TEXT COLLATE "C" NOT NULL,
    delivery_id TEXT COLLATE "C" NOT NULL,
    webhook_uid TEXT COLLATE "C" NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'interrupted')),
    input TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    started_at BIGINT,
    finished_at BIGINT,
    exit_code INTEGER,
    output TEXT,
    error TEXT,
    rerun_of TEXT COLLATE "C",
    -- PostgreSQL only: which replica runs it, and until when (the database's clock, ms) its
    -- lease holds. A running run whose lease has ended becomes interrupted, never re-run.
    lease_owner TEXT,
    lease_expires_at BIGINT,
    CHECK ((status = 'running') = (lease_owner IS NOT NULL))
  );
  CREATE INDEX runs_by_status ON runs (status, id);
  CREATE INDEX runs_by_automation ON runs (automation_id, id);
  CREATE INDEX runs_by_delivery ON runs (delivery_id);
  CREATE INDEX runs_leases ON runs (lease_expires_at) WHERE status = 'running';

  -- Admin API tokens minted through /api/tokens; only a SHA-256 of each value is kept.
  CREATE TABLE api_tokens (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('manage', 'view')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at BIGINT
  );

  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('manage', 'view')),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  );

  -- PostgreSQL only. Secret values, AES-256-GCM under HOOKPORT_MASTER_KEY (which is never here).
  CREATE TABLE secret_values (
    account TEXT COLLATE "C" PRIMARY KEY,
    iv BYTEA NOT NULL,
    tag BYTEA NOT NULL,
    data BYTEA NOT NULL,
    updated_at BIGINT NOT NULL
  );

  -- PostgreSQL only. Shared rate limits: each row is a grant of n slots at granted_at (the
  -- database's clock, ms) to one replica. UNLOGGED: no WAL, so a grant costs no fsync; a database
  -- crash empties it, which only relaxes throttling, as a relay restart does on SQLite.
  CREATE UNLOGGED TABLE rate_grants (
    id BIGSERIAL PRIMARY KEY,
    scope TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    granted_at BIGINT NOT NULL,
    n INTEGER NOT NULL CHECK (n >= 0)
  );
  CREATE INDEX rate_grants_by_key ON rate_grants (scope, key, granted_at);
  CREATE INDEX rate_grants_by_age ON rate_grants (granted_at);

  -- Grants up to p_wanted slots of (scope, key) if fewer than p_limit were granted in the last
  -- p_span_ms, on the database's clock, serialized per key by a transaction advisory lock (in
  -- the rate limiter's own lock namespace, 1215262572; see advisory-lock.ts).
  -- granted = 0 means spent; retry_after_ms then says when the oldest slot that must go, goes.
  CREATE FUNCTION hookport_reserve_slots(
    p_scope TEXT, p_key TEXT, p_wanted INTEGER, p_limit INTEGER, p_span_ms BIGINT,
    OUT grant_id BIGINT, OUT granted INTEGER, OUT retry_after_ms BIGINT
  ) LANGUAGE plpgsql AS $$
  DECLARE
    v_now BIGINT;
    v_used BIGINT;
  BEGIN
    PERFORM pg_advisory_xact_lock(1215262572, hashtext(p_scope || ' ' || p_key));
    -- Read after the lock: grants are serialized and each sees every earlier one.
    v_now := (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT;
    DELETE FROM rate_grants
      WHERE scope = p_scope AND key = p_key AND (granted_at <= v_now - p_span_ms OR n = 0);
    SELECT coalesce(sum(n), 0) INTO v_used FROM rate_grants WHERE scope = p_scope AND key = p_key;
    IF v_used < p_limit THEN
      granted := least(p_wanted, p_limit - v_used);
      INSERT INTO rate_grants (scope, key, granted_at, n)
        VALUES (p_scope, p_key, v_now, granted) RETURNING id INTO grant_id;
      retry_after_ms := 0;
    ELSE
      granted := 0;
      SELECT g.granted_at + p_span_ms - v_now INTO retry_after_ms FROM (
        SELECT granted_at, sum(n) OVER (ORDER BY granted_at, id) AS running
        FROM rate_grants WHERE scope = p_scope AND key = p_key
      ) AS g
      WHERE g.running >= v_used - p_limit + 1 ORDER BY g.granted_at LIMIT 1;
    END IF;
  END $$;
`;
