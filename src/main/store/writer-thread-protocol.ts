import type { BatchItem, BatchResult } from './delivery-batch.js';
import type { BatchStoreOptions } from './sqlite-batch-store.js';

/** What the writer thread is started with. */
export interface WriterThreadData {
  file: string;
  options: BatchStoreOptions;
}

export type ToWriterThread = { type: 'commit'; id: number; batch: BatchItem[] } | { type: 'close' };

/** An error as it crosses the thread boundary: SQLite's code (SQLITE_BUSY, …) survives. */
export interface ThreadError {
  name: string;
  message: string;
  code: string | null;
}

export type FromWriterThread =
  | { type: 'ready' }
  | { type: 'open-failed'; error: ThreadError }
  | { type: 'committed'; id: number; result: BatchResult }
  | { type: 'failed'; id: number; error: ThreadError }
  /** After a search index slice that indexed something: whether entries are still queued. */
  | { type: 'indexed'; more: boolean }
  | { type: 'index-failed'; error: ThreadError };

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), code: null };
  const code = (error as Error & { code?: unknown }).code;
  return { name: error.name, message: error.message, code: typeof code === 'string' ? code : null };
}

export function fromThreadError({ name, message, code }: ThreadError): Error {
  return Object.assign(new Error(message), { name, ...(code === null ? {} : { code }) });
}

/**
 * Structured clone turns a Buffer into a plain Uint8Array. Whatever fields the batch items carry,
 * each byte array becomes a Buffer again (a view, no copy), so the types on both sides stay true.
 */
export function reviveBuffers<T>(value: T): T {
  if (value instanceof Uint8Array) {
    return (
      Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length)
    ) as T;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = reviveBuffers(value[i] as unknown);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = reviveBuffers(record[key]);
  }
  return value;
}

/** How many bytes the byte arrays in `value` hold, whatever fields they are in. */
export function byteLength(value: unknown): number {
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value))
    return value.reduce((sum: number, v: unknown) => sum + byteLength(v), 0);
  if (value !== null && typeof value === 'object') {
    return Object.values(value).reduce((sum: number, v: unknown) => sum + byteLength(v), 0);
  }
  return 0;
}

/**
 * A copy of `value` in which every byte array is a view into `scratch`, memory shared with the
 * thread: posted, the bytes are not copied again into the message and out of it, and no buffer
 * is left behind per body for either thread's garbage collector. The caller's buffers stay as
 * they were.
 */
export function sharedCopy<T>(value: T, scratch: SharedArrayBuffer, at = { offset: 0 }): T {
  if (value instanceof Uint8Array) {
    const view = new Uint8Array(scratch, at.offset, value.length);
    view.set(value);
    at.offset += value.length;
    return view as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => sharedCopy(v, scratch, at)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) copy[key] = sharedCopy(v, scratch, at);
    return copy as T;
  }
  return value;
}
