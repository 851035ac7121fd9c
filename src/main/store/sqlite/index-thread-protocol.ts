import type { ThreadError } from './writer-thread-protocol.js';

/** What the index thread is started with: the relay's file (the index's is beside it). */
export interface IndexThreadData {
  file: string;
}

export type ToIndexThread =
  /** A commit ended: `busyMs`, the relay's time on its account (the index's share follows it). */
  | { type: 'busy'; busyMs: number }
  /** Entries left the log (a prune): their rows are forgotten first, then merged away. */
  | { type: 'pruned' }
  | { type: 'close' };

export type FromIndexThread =
  | { type: 'indexed'; more: boolean }
  | { type: 'index-failed'; error: ThreadError }
  | { type: 'closed' };
