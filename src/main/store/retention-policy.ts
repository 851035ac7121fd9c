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
