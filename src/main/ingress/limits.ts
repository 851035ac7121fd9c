/** The seed's limits (§8) and PRODUCT.md's choices where the seed leaves a number open. */
export { MAX_BODY_BYTES } from '../../shared/limits.js';
export const DELIVERIES_PER_MINUTE = 60;
export const RATE_WINDOW_MS = 60_000;
export const FAILED_AUTH_BUDGET = 20;
export const FAILED_AUTH_WINDOW_MS = 5 * 60_000;
/**
 * Log entries written before authentication (401s, 413s on signature webhooks) per webhook in
 * the same window, whatever the client: at most 1,200 an hour, each with at most 4 KB of headers
 * (steps/bounded-headers.ts), so under 6 MB an hour of log per webhook however many senders.
 */
export const UNAUTHENTICATED_PER_WEBHOOK_BUDGET = 100;
export const WEBHOOKS_PER_FACTORY = 20;
export const DEDUPE_WINDOW_MS = 7 * 24 * 60 * 60_000;

/** Slow senders: headers within 10 s (checked every second), the whole request within 30 s. */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** After an answer sent while the sender is still writing: how long its bytes are still read. */
export const LINGER_MS = 5_000;
/** An early answer keeps the connection if at most this much declared body is left to drop. */
export const SKIPPABLE_BODY_BYTES = 64 * 1024;
