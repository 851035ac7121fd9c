export interface RetentionPolicy {
  /** Every delivery newer than this many days is kept. */
  days: number;
  /** And at least this many of the newest per webhook, however old. */
  minPerWebhook: number;
  dedupeWindowMs: number;
}

export interface Retention {
  /** Deletes what the policy no longer protects, a slice at a time; how many deliveries went. */
  prune(policy: RetentionPolicy, now: number): Promise<number>;
}

const DAY_MS = 24 * 60 * 60_000;

/** Entries received before this are past the policy's days (the newest N may still keep them). */
export const pruneCutoff = (policy: RetentionPolicy, now: number): number =>
  now - policy.days * DAY_MS;
