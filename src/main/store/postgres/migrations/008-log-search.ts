/**
 * Version 8 on PostgreSQL: the log search of PRODUCT.md §14, SQLite's FTS5 trigram index of
 * version 4 done with pg_trgm (a trusted extension: the database owner may create it). GIN
 * trigram indexes answer `LIKE '%text%'` over each entry's ID, identity and event type and over
 * its payload text, case-insensitively.
 *
 * Case is folded by hookport_fold, on both sides of the LIKE. With ICU (Debian's and most builds)
 * it folds all of Unicode, as FTS5 does, whatever the database's collation; `lower` under the C
 * collation would fold ASCII only. Without ICU it falls back to the database's own `lower`.
 *
 * Payload text: the stored bytes read as UTF-8. Bytes that are not UTF-8 (or hold a NUL) give
 * NULL, never an error: indexing is part of the accept transaction, which must not fail on them.
 * That takes an exception block, which a parallel worker cannot run: PARALLEL RESTRICTED keeps
 * the index build on an existing log (and any scan calling it) in the leader.
 */
export const logSearch = `
  CREATE EXTENSION IF NOT EXISTS pg_trgm;

  DO $fold$ BEGIN
    CREATE FUNCTION hookport_fold(t TEXT) RETURNS TEXT
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $body$ SELECT lower(t COLLATE "und-x-icu") $body$;
  EXCEPTION WHEN undefined_object THEN
    CREATE FUNCTION hookport_fold(t TEXT) RETURNS TEXT
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $body$ SELECT lower(t) $body$;
  END $fold$;

  CREATE FUNCTION hookport_payload_text(body BYTEA) RETURNS TEXT
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL RESTRICTED AS $body$
  BEGIN
    RETURN hookport_fold(convert_from(body, 'UTF8'));
  EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    RETURN NULL;
  END $body$;

  CREATE INDEX deliveries_search ON deliveries USING gin (
    hookport_fold(id) gin_trgm_ops,
    hookport_fold(identity) gin_trgm_ops,
    hookport_fold(event_type) gin_trgm_ops);
  CREATE INDEX payloads_search ON payloads USING gin (hookport_payload_text(body) gin_trgm_ops);
`;
