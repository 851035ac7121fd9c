import type { DeliveriesRepository } from '../deliveries.js';
import type { ThreadError } from './writer-thread-protocol.js';

/** What the read thread is started with: the relay's file, created and migrated already. */
export interface ReadThreadData {
  file: string;
}

/**
 * The log's reads that go to the thread: those that walk many entries (a page or total of a
 * search, the counts behind the activity and volume charts). A read of one entry stays on the
 * main connection.
 */
export const THREAD_READS = [
  'page',
  'count',
  'countSince',
  'activitySince',
  'volumeSince',
] as const satisfies ReadonlyArray<keyof DeliveriesRepository>;
export type ThreadRead = (typeof THREAD_READS)[number];

export type ReadCall = {
  [M in ThreadRead]: { method: M; args: Parameters<DeliveriesRepository[M]> };
}[ThreadRead];

/**
 * Which thread answers a read. A search's total can take a second at two million entries (its
 * first count), and a thread answers one read at a time: thirty asked at once held the UI's first
 * page 0.9 s behind them. Totals of a search go to a thread of their own, so a page (and a total
 * without a search) never waits behind one.
 */
export type ReadLane = 'pages' | 'search totals';
export const laneOf = (call: ReadCall): ReadLane =>
  call.method === 'count' && call.args[1]?.q !== undefined ? 'search totals' : 'pages';

export type ToReadThread = { type: 'read'; id: number; call: ReadCall } | { type: 'close' };

export type FromReadThread =
  | { type: 'open-failed'; error: ThreadError }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: ThreadError }
  | { type: 'closed' };
