/** What the keeper renews through: the runs whose leases it could not extend are lost. */
export interface LeaseRenewal {
  renew(runIds: readonly string[]): Promise<string[]>;
}

export interface LeaseKeeperOptions {
  /** How often leases are renewed: a third of the lease leaves two renewals' worth of slack. */
  intervalMs: number;
  /** A run this replica runs was interrupted elsewhere (its lease had ended): stop executing it. */
  onLost: (runId: string) => void;
  /** A renewal failed (the database is unreachable); the next one tries again. */
  onError: (error: unknown) => void;
}

/**
 * Renews the leases of the runs this replica is executing, for as long as they execute. A run
 * whose lease could not be renewed in time is interrupted by another replica; the next renewal
 * learns it and the executor is stopped, so a run is never finished by two replicas.
 */
export class LeaseKeeper {
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly claims: LeaseRenewal,
    private readonly options: LeaseKeeperOptions,
  ) {}

  track(runId: string): void {
    this.running.add(runId);
    if (!this.timer) {
      this.timer = setInterval(() => void this.renewNow(), this.options.intervalMs);
      this.timer.unref();
    }
  }

  untrack(runId: string): void {
    this.running.delete(runId);
    if (this.running.size === 0) this.stop();
  }

  /** One renewal of every tracked lease (the timer's job; callable directly). */
  renewNow(): Promise<void> {
    this.renewing ??= this.renew().finally(() => (this.renewing = null));
    return this.renewing;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async renew(): Promise<void> {
    try {
      for (const runId of await this.claims.renew([...this.running])) {
        this.running.delete(runId);
        this.options.onLost(runId);
      }
    } catch (error) {
      this.options.onError(error);
    }
  }
}
