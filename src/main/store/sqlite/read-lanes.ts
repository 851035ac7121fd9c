import type { DeliveriesRepository, DeliveryPageFilter } from '../deliveries.js';
import {
  laneOf,
  THREAD_READS,
  type ReadCall,
  type ReadLane,
  type ThreadRead,
} from './read-thread-protocol.js';
import { keepLatest, searchKey } from '../search-total-parts.js';
import { READ_IDLE_CLOSE_MS, SqliteReadThread } from './sqlite-read-thread.js';
import { savedTotalNames } from './saved-totals.js';

/**
 * The delivery log's reads that walk many entries, on two read threads (read-thread-protocol.ts's
 * `laneOf`): one for pages and plain counts, one for the totals of searches. Each starts with its
 * first read and closes once idle on its own; the totals' thread saves the totals it keeps
 * (saved-totals.ts), so the next one counts on from them.
 */
export class SqliteReadLanes {
  readonly #lanes: Record<ReadLane, SqliteReadThread>;
  /** The searches the totals' thread has counted (and saved: a thread started since loads them). */
  readonly #counted = new Map<string, true>();
  /** Those saved before this relay started. */
  readonly #saved: ReturnType<typeof savedTotalNames>;

  constructor(file: string, idleCloseMs = READ_IDLE_CLOSE_MS) {
    this.#saved = savedTotalNames(file);
    this.#lanes = {
      pages: new SqliteReadThread(file, idleCloseMs),
      'search totals': new SqliteReadThread(file, idleCloseMs),
    };
  }

  /** The log's read side: the reads that walk many entries on a thread, the rest on `onMain`. */
  deliveries(onMain: DeliveriesRepository): DeliveriesRepository {
    const onThread = THREAD_READS.map((method) => [
      method,
      (...args: ReadCall['args']) => {
        // A count's asker (its third argument) stays here: the thread is sent what it reads.
        const counted = method === 'count';
        const gone = counted ? (args[2] as AbortSignal | undefined) : undefined;
        const call = { method, args: counted ? args.slice(0, 2) : args } as ReadCall;
        const lane = laneOf(call);
        if (lane === 'pages') return this.#lanes.pages.read(call, gone);
        return this.#total(call, gone);
      },
    ]);
    return {
      ...onMain,
      ...(Object.fromEntries(onThread) as Pick<DeliveriesRepository, ThreadRead>),
    };
  }

  /**
   * A search's total, ahead of the first counts waiting when the totals' thread has counted it,
   * or a total of it was saved: it counts on from that total (tens of milliseconds), and the UI
   * asks again with each live entry, where a first count takes up to a second at a week's scale.
   */
  #total(call: ReadCall, gone: AbortSignal | undefined): Promise<unknown> {
    const [webhookUid, only = {}] = call.args as [string, DeliveryPageFilter?];
    const key = searchKey(webhookUid, only);
    const before = this.#counted.has(key) || this.#saved.has(key);
    const answer = this.#lanes['search totals'].read(call, gone, before);
    void answer.then(
      () => keepLatest(this.#counted, key, true),
      () => undefined,
    );
    return answer;
  }

  /** Which threads are up (each closes once idle). */
  get started(): ReadLane[] {
    return (Object.keys(this.#lanes) as ReadLane[]).filter((lane) => this.#lanes[lane].started);
  }

  /** Ends both threads once the reads already asked are answered. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.#lanes).map((lane) => lane.close()));
    this.#saved.close();
  }
}
