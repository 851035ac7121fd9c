import type { DeliveriesRepository } from '../deliveries.js';
import {
  laneOf,
  THREAD_READS,
  type ReadCall,
  type ReadLane,
  type ThreadRead,
} from './read-thread-protocol.js';
import { READ_IDLE_CLOSE_MS, SqliteReadThread } from './sqlite-read-thread.js';

/**
 * The delivery log's reads that walk many entries, on two read threads (read-thread-protocol.ts's
 * `laneOf`): one for pages and plain counts, one for the totals of searches. Each starts with its
 * first read and closes once idle on its own; the totals a thread keeps (search-totals.ts) are
 * kept by the one that counts them.
 */
export class SqliteReadLanes {
  readonly #lanes: Record<ReadLane, SqliteReadThread>;

  constructor(file: string, idleCloseMs = READ_IDLE_CLOSE_MS) {
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
        return this.#lanes[laneOf(call)].read(call, gone);
      },
    ]);
    return {
      ...onMain,
      ...(Object.fromEntries(onThread) as Pick<DeliveriesRepository, ThreadRead>),
    };
  }

  /** Which threads are up (each closes once idle). */
  get started(): ReadLane[] {
    return (Object.keys(this.#lanes) as ReadLane[]).filter((lane) => this.#lanes[lane].started);
  }

  /** Ends both threads once the reads already asked are answered. */
  async close(): Promise<void> {
    await Promise.all(Object.values(this.#lanes).map((lane) => lane.close()));
  }
}
