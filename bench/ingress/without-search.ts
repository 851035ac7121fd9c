/**
 * `no-search` on PostgreSQL (relay-server.ts, naive-postgres-server.ts): prices the log search
 * by writing as if it did not exist. Without the GIN indexes, and with new rows born indexed,
 * nothing is queued (the queues' partial B-trees skip them) and the relays' indexers find nothing
 * to do.
 */
export const POSTGRES_WITHOUT_SEARCH = `
  DROP INDEX IF EXISTS deliveries_search, payloads_search;
  ALTER TABLE deliveries ALTER COLUMN indexed SET DEFAULT true;
  ALTER TABLE payloads ALTER COLUMN indexed SET DEFAULT true;
`;
