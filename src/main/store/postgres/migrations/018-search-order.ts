/**
 * Version 18 on PostgreSQL: the order in which log entries join the search index, so that a
 * search's exact total can be kept and counted on (search-totals.ts). Two relays write the log,
 * and their IDs do not commit in ID order: "count on from the last ID" would miss an entry
 * committed late below it. Instead the search indexer numbers each entry it marks indexed from
 * `delivery_search_order`, holding a transaction-level advisory lock until it commits
 * (search-index.ts): numbers then commit in their order, and any snapshot sees every number up to
 * the highest it sees. Entries indexed before this version have no number; they count as indexed
 * before any that has one. Nothing is rewritten: the column is added empty, and the index holds
 * only numbered rows.
 */
export const searchOrder = `
  CREATE SEQUENCE delivery_search_order;
  ALTER TABLE deliveries ADD COLUMN search_order BIGINT;
  CREATE INDEX deliveries_by_search_order ON deliveries (webhook_uid, search_order)
    WHERE search_order IS NOT NULL;
`;
