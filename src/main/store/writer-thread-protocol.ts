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
  | { type: 'failed'; id: number; error: ThreadError };

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
 * The ArrayBuffers behind them are added to `received`, when given.
 */
export function reviveBuffers<T>(value: T, received?: Set<ArrayBuffer>): T {
  if (value instanceof Uint8Array) {
    if (value.buffer instanceof ArrayBuffer) received?.add(value.buffer);
    return (
      Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length)
    ) as T;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = reviveBuffers(value[i] as unknown, received);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = reviveBuffers(record[key], received);
  }
  return value;
}

/**
 * A copy of `value` in which every byte array is a copy in an ArrayBuffer of its own, listed in
 * `transfer`. Posted with that list, the bytes move to the thread rather than being copied into
 * the message and out of it again; the caller's own buffers stay as they were.
 */
export function movableCopy<T>(value: T, transfer: ArrayBuffer[]): T {
  if (value instanceof Uint8Array) {
    const copy = new Uint8Array(value);
    transfer.push(copy.buffer);
    return copy as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => movableCopy(v, transfer)) as T;
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) copy[key] = movableCopy(v, transfer);
    return copy as T;
  }
  return value;
}
