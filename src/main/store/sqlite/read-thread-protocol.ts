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

export type ToReadThread = { type: 'read'; id: number; call: ReadCall } | { type: 'close' };

export type FromReadThread =
  | { type: 'open-failed'; error: ThreadError }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number; error: ThreadError }
  | { type: 'closed' };
