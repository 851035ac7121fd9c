/**
 * New rows born indexed: they go into the partial GIN indexes in the transaction that writes
 * them, as they did before migration 10, and the queues' partial B-trees skip them. The naive
 * server keeps its search this way, in step with each commit, as a straightforward server would.
 */
export const POSTGRES_INDEXED_AT_INSERT = `
  ALTER TABLE deliveries ALTER COLUMN indexed SET DEFAULT true;
  ALTER TABLE payloads ALTER COLUMN indexed SET DEFAULT true;
`;

/**
 * `no-search` on PostgreSQL (relay-server.ts, naive-postgres-server.ts): prices the log search
 * by writing as if it did not exist. Without the GIN indexes, and with new rows born indexed,
 * nothing is queued and the relays' indexers find nothing to do.
 */
export const POSTGRES_WITHOUT_SEARCH = `
  DROP INDEX IF EXISTS deliveries_search, payloads_search;
  ${POSTGRES_INDEXED_AT_INSERT}
`;
