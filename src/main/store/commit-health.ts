import { describeError, type Logger } from '../log.js';

/** How long a commit's outcome (or a probe's) answers the health check before it is checked again. */
export const HEALTH_FRESH_MS = 1_000;
/** A probe that has not committed in this long counts as failed. */
export const HEALTH_PROBE_TIMEOUT_MS = 2_000;
/** The settings key the probe writes (the time of its write): a real commit, on either store. */
export const COMMIT_PROBE_KEY = 'health.commitProbe';

/** Why the store cannot commit, in an operator's words and without the store's internals. */
export type CommitTrouble =
  /** The store did not answer (connection refused, reset, or the database shutting down). */
  | 'unreachable'
  /** The probe's commit did not end within HEALTH_PROBE_TIMEOUT_MS. */
  | 'timeout'
  /** The store answered and refused the write (read-only, disk full, I/O error). */
  | 'refused';

export type CommitHealthState =
  { ok: true } | { ok: false; reason: CommitTrouble; code: string | null; since: number };

export interface CommitHealthOptions {
  /** Commits one small write (COMMIT_PROBE_KEY); rejects when the store cannot. */
  probe: () => Promise<void>;
  now: () => number;
  log: Logger;
  freshMs?: number;
  probeTimeoutMs?: number;
}

interface Evidence {
  at: number;
  state: CommitHealthState;
  /** A batch's failure may be one bad item's: it makes the next check probe, not answer 503. */
  fromProbe: boolean;
}

/** pg's errors without a code when the connection went away. */
const UNREACHABLE = /Connection terminated|terminating connection|not queryable|not open|closed/i;

/** SQLSTATE (PostgreSQL) or SQLITE_* code of a store's error, when it has one. */
function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length <= 40 ? code : null;
}

function troubleOf(error: unknown): CommitTrouble {
  const code = codeOf(error);
  // SQLSTATE class 08 is connection exceptions; 57P0x the server shutting down or starting.
  if (code && /^(08|57P0)/.test(code)) return 'unreachable';
  // Node's socket errors (ECONNREFUSED, ECONNRESET, EPIPE, …).
  if (code && /^E[A-Z]+$/.test(code)) return 'unreachable';
  if (code) return 'refused';
  return UNREACHABLE.test(describeError(error)) ? 'unreachable' : 'refused';
}

/**
 * Whether the store can commit, for the ingress health check, known without writing on every
 * check: a delivery batch that commits is proof for HEALTH_FRESH_MS; otherwise (no traffic, or
 * a batch failed) the check commits one small probe write, at most one at a time and, when it
 * fails, at most once per HEALTH_FRESH_MS. A failed batch alone never answers 503: it may be one
 * hostile item's, so it only makes the next check probe.
 */
export class CommitHealth {
  private last: Evidence | null = null;
  private probing: Promise<void> | null = null;
  /** /healthz answers 503, and the log said so. */
  private reported = false;
  private readonly freshMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: CommitHealthOptions) {
    this.freshMs = options.freshMs ?? HEALTH_FRESH_MS;
    this.timeoutMs = options.probeTimeoutMs ?? HEALTH_PROBE_TIMEOUT_MS;
  }

  /** A delivery batch committed. */
  committed(): void {
    this.note({ at: this.options.now(), state: { ok: true }, fromProbe: false });
  }

  /** A delivery batch failed to commit: the next check probes. */
  commitFailed(error: unknown): void {
    this.note({ at: this.options.now(), state: this.failure(error), fromProbe: false });
  }

  /** The store's state now: from fresh evidence, or from a probe. */
  async check(): Promise<CommitHealthState> {
    const last = this.last;
    const fresh = last !== null && this.options.now() - last.at < this.freshMs;
    if (fresh && (last.state.ok || last.fromProbe)) return last.state;
    await this.probe();
    return this.last?.state ?? { ok: true };
  }

  private probe(): Promise<void> {
    this.probing ??= this.runProbe().finally(() => (this.probing = null));
    return this.probing;
  }

  private async runProbe(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
      timer.unref();
    });
    try {
      const result = await Promise.race([this.options.probe().then(() => 'ok' as const), timedOut]);
      const state: CommitHealthState =
        result === 'ok' ? { ok: true } : { ...this.failure(null), reason: 'timeout' };
      this.note({ at: this.options.now(), state, fromProbe: true });
    } catch (error) {
      this.note({ at: this.options.now(), state: this.failure(error), fromProbe: true });
    } finally {
      clearTimeout(timer);
    }
  }

  private failure(error: unknown): Extract<CommitHealthState, { ok: false }> {
    const since = this.last && !this.last.state.ok ? this.last.state.since : this.options.now();
    const reason = troubleOf(error);
    // The store's own code (a SQLSTATE, SQLITE_FULL) says why it refused; a socket's adds nothing.
    return { ok: false, reason, code: reason === 'refused' ? codeOf(error) : null, since };
  }

  /** Keeps the evidence; says so in the log when the answer of /healthz changes. */
  private note(evidence: Evidence): void {
    this.last = evidence;
    if (evidence.fromProbe && !evidence.state.ok && !this.reported) {
      this.reported = true;
      const { reason, code } = evidence.state;
      this.options.log.error(
        `[health] the store cannot commit (${reason}${code ? `, ${code}` : ''}): /healthz answers 503 until it can`,
      );
    } else if (evidence.state.ok && this.reported) {
      this.reported = false;
      this.options.log.info('[health] the store commits again: /healthz answers 200');
    }
  }
}
