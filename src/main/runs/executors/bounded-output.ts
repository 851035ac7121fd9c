/** Captured output kept per run: the first and the last half of this many bytes. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Collects a stream's bytes without growing past a limit: it keeps the beginning (how the run
 * started) and the end (how it failed), and says how much of the middle it dropped.
 */
export class BoundedOutput {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly limit = MAX_OUTPUT_BYTES) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const half = Math.floor(this.limit / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - (this.tail[0]?.length ?? 0) >= half) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  get byteLength(): number {
    return this.total;
  }

  /**
   * The text kept; null when nothing was written. A NUL byte reads as U+FFFD: PostgreSQL text
   * cannot hold one, and a program's output is for reading.
   */
  text(): string | null {
    if (this.total === 0) return null;
    return this.joined().replaceAll('\u0000', '\uFFFD');
  }

  private joined(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const half = Math.floor(this.limit / 2);
    const tailAll = Buffer.concat(this.tail);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - half));
    const dropped = this.total - this.headBytes - tail.length;
    if (dropped === 0) return head + tail.toString('utf8');
    return `${head}\n[… ${dropped} bytes of output not kept …]\n${tail.toString('utf8')}`;
  }
}
