/**
 * Version 20 on PostgreSQL: a search's kept exact total (search-totals.ts) kept in the database
 * too, for every relay and across restarts. A common text's first count takes seconds at a
 * week's scale (14–17 s at two million entries); each relay counted it once after each start.
 * Any total saved there is a sound base to count on from, whenever it was saved: entries join the
 * index in their order (version 18) and each part of a total knows how many entries it counted
 * among, so a deletion since shows. `search` is the relay's key for the search (the webhook and
 * its filters, as JSON); `used_at` (epoch ms) lets totals no one asked for in a week go.
 */
export const searchTotals = `
  CREATE TABLE search_totals (
    search TEXT COLLATE "C" PRIMARY KEY,
    kept JSONB NOT NULL,
    used_at BIGINT NOT NULL
  );
  CREATE INDEX search_totals_by_use ON search_totals (used_at);
`;
