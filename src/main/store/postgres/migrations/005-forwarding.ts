/** Version 5 on PostgreSQL: SQLite's 005-forwarding (flags as BOOLEAN, bodies as BYTEA). */
export const forwarding = `
  CREATE TABLE forward_attempts (
    id TEXT COLLATE "C" PRIMARY KEY,
    delivery_id TEXT COLLATE "C" NOT NULL,
    webhook_uid TEXT COLLATE "C" NOT NULL,
    url TEXT NOT NULL,
    at BIGINT NOT NULL,
    status INTEGER,
    -- JSON [name, value] pairs, credential values redacted.
    response_headers TEXT NOT NULL,
    response_body BYTEA NOT NULL,
    body_truncated BOOLEAN NOT NULL,
    duration_ms INTEGER NOT NULL,
    error TEXT,
    -- The edited payload sent instead of the stored bytes; NULL when those went out.
    sent_body BYTEA,
    signed BOOLEAN NOT NULL,
    request_headers TEXT NOT NULL,
    forwarder BOOLEAN NOT NULL,
    delivered BOOLEAN NOT NULL
  );
  CREATE INDEX forward_attempts_by_delivery ON forward_attempts (delivery_id, id);

  CREATE TABLE forward_cursors (
    webhook_uid TEXT COLLATE "C" NOT NULL,
    url TEXT COLLATE "C" NOT NULL,
    delivery_id TEXT COLLATE "C" NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (webhook_uid, url)
  );

  ALTER TABLE runs ADD COLUMN http_status INTEGER;
  CREATE INDEX runs_by_rerun_of ON runs (rerun_of) WHERE rerun_of IS NOT NULL;
`;
