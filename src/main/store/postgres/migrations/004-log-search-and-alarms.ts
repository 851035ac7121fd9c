/**
 * Version 4 on PostgreSQL: SQLite's 004-log-search-and-alarms, without its search index. The
 * trigram FTS5 table, its queue and triggers are SQLite's way to search payload text; PostgreSQL
 * gets its own (pg_trgm) when its store is wired in. The covering index for filters and totals,
 * the alarm tables and the factory's alarm notification are the same on both.
 */
export const logSearchAndAlarms = `
  DROP INDEX deliveries_by_webhook;
  CREATE INDEX deliveries_by_webhook ON deliveries (webhook_uid, id, label, received_at);

  CREATE TABLE webhook_alarm_settings (
    webhook_uid TEXT COLLATE "C" PRIMARY KEY,
    expected_every_minutes INTEGER,
    cadence_set_at BIGINT NOT NULL,
    auth_failure_streak INTEGER
  );

  CREATE TABLE webhook_alarms (
    webhook_uid TEXT COLLATE "C" NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('quiet', 'auth')),
    since BIGINT NOT NULL,
    PRIMARY KEY (webhook_uid, kind)
  );

  ALTER TABLE factories ADD COLUMN alarm_notification TEXT;
`;
