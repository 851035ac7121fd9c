/**
 * Version 10 on PostgreSQL: the log search's indexes leave the accept transaction, as SQLite's
 * did (version 4's queue and background indexer). Updating both GIN indexes for each delivery
 * cost two thirds of a relay's deliveries a second at 1 KB and nine tenths at 64 KB (store level,
 * `bench -- postgres-store`'s load); `deliveries_search` alone, though its strings are short,
 * about a quarter at either size: every insert queues its trigrams on the index's one metapage.
 *
 * Now a delivery and its payload arrive with `indexed = false`, each GIN index holds only the
 * indexed rows, and a small B-tree over the others is the queue that the background indexers
 * work through (search-index.ts); the search reads both (deliveries-repo.ts). The accept path
 * writes its rows as before and knows nothing of this.
 *
 * The columns are added with DEFAULT true (no table rewrite: every existing row is in the old
 * indexes, so indexed), then new rows default to false. The partial GIN indexes are built anew
 * from the existing rows: once, in the migration, for as long as the log takes.
 */
export const searchQueue = `
  ALTER TABLE deliveries ADD COLUMN indexed BOOLEAN NOT NULL DEFAULT true;
  ALTER TABLE deliveries ALTER COLUMN indexed SET DEFAULT false;
  DROP INDEX deliveries_search;
  CREATE INDEX deliveries_search ON deliveries USING gin (
    hookport_fold(id) gin_trgm_ops,
    hookport_fold(identity) gin_trgm_ops,
    hookport_fold(event_type) gin_trgm_ops) WHERE indexed;
  CREATE INDEX deliveries_search_queue ON deliveries (id) WHERE NOT indexed;

  ALTER TABLE payloads ADD COLUMN indexed BOOLEAN NOT NULL DEFAULT true;
  ALTER TABLE payloads ALTER COLUMN indexed SET DEFAULT false;
  DROP INDEX payloads_search;
  CREATE INDEX payloads_search ON payloads USING gin (hookport_payload_text(body) gin_trgm_ops)
    WHERE indexed;
  CREATE INDEX payloads_search_queue ON payloads (delivery_id) WHERE NOT indexed;
`;
