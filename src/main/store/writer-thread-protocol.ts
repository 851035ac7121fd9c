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
