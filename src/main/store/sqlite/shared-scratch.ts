/** Kept for the next batch up to this size; a larger batch gets memory of its own, dropped after. */
const KEEP_BYTES = 16 * 1024 * 1024;
const GRANULE = 64 * 1024;

/**
 * The memory a batch's bytes cross to the writer thread in: one SharedArrayBuffer, reused batch
 * after batch (one commit is in flight at a time), so handing bodies over allocates nothing per
 * body and leaves nothing for either thread's garbage collector. At most KEEP_BYTES stay between
 * batches.
 */
export class SharedScratch {
  private spare: SharedArrayBuffer | null = null;

  take(bytes: number): SharedArrayBuffer {
    const spare = this.spare;
    if (spare && spare.byteLength >= bytes) {
      this.spare = null;
      return spare;
    }
    return new SharedArrayBuffer(Math.max(GRANULE, Math.ceil(bytes / GRANULE) * GRANULE));
  }

  /** Bytes held for the next batch. */
  get kept(): number {
    return this.spare?.byteLength ?? 0;
  }

  /** Nothing is in flight and none is expected soon: the memory goes back (the next batch allocates). */
  release(): void {
    this.spare = null;
  }

  /** The thread is done with it: its batch was answered, or the thread is gone. */
  give(scratch: SharedArrayBuffer): void {
    if (scratch.byteLength > KEEP_BYTES) return;
    if (!this.spare || this.spare.byteLength < scratch.byteLength) this.spare = scratch;
  }
}
