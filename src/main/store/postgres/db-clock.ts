/**
 * The database's clock in epoch milliseconds, as SQL. Leases and rate-limit windows are measured
 * on it so that replicas whose clocks disagree still agree on when a lease ends.
 */
export const DB_NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT';
