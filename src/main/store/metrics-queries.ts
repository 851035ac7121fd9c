/** What /metrics reads from the database when it is scraped (not on any delivery's path). */
export interface MetricsReader {
  runsByStatusAndExecutor(): Promise<Array<{ status: string; executor: string; n: number }>>;
  queue(): Promise<{ depth: number; oldest: number | null }>;
  liveWebhooks(): Promise<Array<{ uid: string; name: string }>>;
  searchPending(): Promise<number>;
}
