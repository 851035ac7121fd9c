/**
 * Version 21 on PostgreSQL: a saved search total (version 20) is found by the SHA-256 of the
 * relay's key for its search, no longer by the key itself, which held the search's text: an
 * operator looking for a leaked token kept it in the database for a week. The totals saved under
 * the old names are dropped (each is counted again once, by the first relay asked).
 */
export const searchTotalsNamedByDigest = `
  DELETE FROM search_totals;
`;
