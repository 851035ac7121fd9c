/**
 * Version 9, PostgreSQL only: the live replicas (a heartbeat each) and how far each has applied
 * the changes other replicas announced, so that a secret rotation answers only once every live
 * replica uses the new value.
 */
export const replicas = `
  CREATE SEQUENCE hookport_change_seq;
  CREATE TABLE replicas (
    id TEXT PRIMARY KEY,
    started_at BIGINT NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_seq BIGINT NOT NULL DEFAULT 0
  );
`;
