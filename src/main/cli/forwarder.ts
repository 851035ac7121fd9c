import { setTimeout as sleep } from 'node:timers/promises';
import type { MethodOutput } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import type { AdminClient } from './admin-client.js';
import type { DeliveryWakeups } from './delivery-wakeups.js';

type BacklogItem = MethodOutput<'deliveries.forwardBacklog'>['items'][number];
type Attempt = MethodOutput<'deliveries.forward'>['attempt'];

/** Between looks at the log when no event woke the forwarder (events are only a hint). */
const IDLE_LOOK_MS = 5_000;
const PAGE = 100;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 15_000;

export interface ForwarderOptions {
  client: AdminClient;
  webhookUid: string;
  url: string;
  sign: boolean;
  /** Sign for a URL that is not loopback (`--allow-remote-signing`). */
  allowRemoteSigning?: boolean;
  /** Forward the deliveries after this one (exclusive). */
  after: string;
  wakeups: DeliveryWakeups;
  /** Aborted by Ctrl-C: no new forward starts; one in flight finishes first. */
  signal: AbortSignal;
  print: (line: string) => void;
  /** Backoff base, shortened by tests that take the handler down. */
  firstBackoffMs?: number;
}

const clock = (): string => new Date().toTimeString().slice(0, 8);

/** `time  delivery-id  event-type  →  status  ms`, one per delivery forwarded. */
export function forwardLine(item: BacklogItem, attempt: Attempt): string {
  const status =
    attempt.status === null ? `no answer (${attempt.error ?? 'unknown'})` : attempt.status;
  return `${clock()}  ${item.id}  ${item.eventType ?? '-'}  →  ${status}  ${attempt.durationMs} ms`;
}

/**
 * `hookport forward`'s loop: reads what is still to send from the relay's log, in order, and
 * forwards one delivery at a time through the relay, which records each attempt and, once the
 * handler took one, the URL's place. A delivery is retried (with backoff) until the handler takes
 * it: nothing is skipped while the handler or the relay is away.
 */
export class Forwarder {
  private after: string;
  lastForwarded: string | null = null;

  constructor(private readonly options: ForwarderOptions) {
    this.after = options.after;
  }

  get stopped(): boolean {
    return this.options.signal.aborted;
  }

  async run(): Promise<void> {
    while (!this.stopped) {
      const page = await this.retrying('read the log', () =>
        this.options.client.call('deliveries.forwardBacklog', {
          uid: this.options.webhookUid,
          url: this.options.url,
          after: this.after,
          limit: PAGE,
        }),
      );
      if (!page) return;
      for (const item of page.items) {
        if (this.stopped) return;
        if (!(await this.forwardOne(item))) return;
        this.after = item.id;
      }
      if (!page.more) await this.options.wakeups.wait(IDLE_LOOK_MS);
    }
  }

  /** True once the handler took it (or it is gone from the log); false when stopped first. */
  private async forwardOne(item: BacklogItem): Promise<boolean> {
    let backoff = this.options.firstBackoffMs ?? FIRST_BACKOFF_MS;
    for (;;) {
      let attempt: Attempt;
      try {
        const answer = await this.retrying('forward', () =>
          this.options.client.call('deliveries.forward', {
            id: item.id,
            url: this.options.url,
            sign: this.options.sign,
            allowRemoteSigning: this.options.allowRemoteSigning ?? false,
            forwarder: true,
          }),
        );
        if (!answer) return false;
        attempt = answer.attempt;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') {
          this.options.print(
            `${clock()}  ${item.id}  ${item.eventType ?? '-'}  →  gone from the log (pruned); next`,
          );
          return true;
        }
        throw error;
      }
      if (attempt.delivered) {
        this.options.print(forwardLine(item, attempt));
        this.lastForwarded = item.id;
        return true;
      }
      const why =
        attempt.status === null ? (attempt.error ?? 'no answer') : `HTTP ${attempt.status}`;
      this.options.print(
        `${clock()}  ${item.id}  ${item.eventType ?? '-'}  →  handler down (${why}); trying again in ${backoff / 1000} s`,
      );
      if (!(await this.pause(backoff))) return false;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /**
   * Calls the relay until it answers: while it cannot be reached, says so and tries again with
   * backoff. Undefined when stopped; other refusals are thrown.
   */
  private async retrying<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
    let backoff = this.options.firstBackoffMs ?? FIRST_BACKOFF_MS;
    for (;;) {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'unavailable') throw error;
        this.options.print(
          `${clock()}  cannot ${what}: ${error.message} Trying again in ${backoff / 1000} s.`,
        );
      }
      if (!(await this.pause(backoff))) return undefined;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  /** False when Ctrl-C came during the pause. */
  private async pause(ms: number): Promise<boolean> {
    await sleep(ms, undefined, { signal: this.options.signal }).catch(() => undefined);
    return !this.stopped;
  }
}
