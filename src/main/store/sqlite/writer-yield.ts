/**
 * Who is waiting for SQLite's write lock, in memory the main thread and the writer thread share.
 * The writer thread's background work (the search index's catch-up, retention, the index's merge
 * steps) holds the lock in slices; a slice that sees anyone waiting ends after its current entry
 * and no new one starts until nobody is. Without it, a main-thread write waited in SQLite's busy
 * handler (which sleeps on the thread that answers senders, polling in growing steps) for a gap
 * between slices: on a loaded machine it found none for the whole busy timeout and the relay's
 * start failed with `database is locked`. A commit posted to the thread waited for the slice too.
 */
export class WriterYield {
  /** [main-thread calls under way, commits posted, commits taken by the thread]. */
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(3 * 4)) {
    this.cells = new Int32Array(buffer);
  }

  /** Main thread: `fn` (a store call, synchronous) runs with the lock asked for. */
  around<T>(fn: () => T): T {
    Atomics.add(this.cells, 0, 1);
    try {
      return fn();
    } finally {
      Atomics.sub(this.cells, 0, 1);
    }
  }

  /** Main thread: a transaction that spans a few awaits of its own calls (`SqliteTransactions`). */
  enter(): void {
    Atomics.add(this.cells, 0, 1);
  }

  leave(): void {
    Atomics.sub(this.cells, 0, 1);
  }

  /** Main thread: a commit is posted to the thread. */
  posted(): void {
    Atomics.add(this.cells, 1, 1);
  }

  /** Writer thread: it has taken a posted commit. */
  taken(): void {
    Atomics.add(this.cells, 2, 1);
  }

  /** Main thread, as a new writer thread starts: the commits a dead one never took are gone. */
  resetCommits(): void {
    Atomics.store(this.cells, 1, 0);
    Atomics.store(this.cells, 2, 0);
  }

  /** Writer thread: background work should end its slice now. */
  readonly wanted = (): boolean =>
    Atomics.load(this.cells, 0) > 0 || Atomics.load(this.cells, 1) > Atomics.load(this.cells, 2);
}

/** For background work with nobody to yield to (benchmarks, one-connection tools). */
export const neverWanted = (): boolean => false;
