/**
 * Version 11 on PostgreSQL: each log entry's one-line summary (PRODUCT.md §22), searched with its
 * ID, identity and event type. A trigram index of its own, partial as version 10's are, so that
 * nothing existing is rebuilt: no row has a summary yet, and it starts empty. IF NOT EXISTS: a
 * log seeded by today's writer on an older schema (the migration tests) has the column already.
 */
export const deliverySummaries = `
  ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS summary TEXT;
  CREATE INDEX deliveries_summary_search ON deliveries USING gin (
    hookport_fold(summary) gin_trgm_ops) WHERE indexed AND summary IS NOT NULL;
`;
