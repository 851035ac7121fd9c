import type { IncomingMessage, ServerResponse } from 'node:http';
import { SKIPPABLE_BODY_BYTES } from './limits.js';

export type IngressErrorCode =
  | 'not_found'
  | 'method_not_allowed'
  | 'unauthorized'
  | 'payload_too_large'
  | 'rate_limited'
  | 'invalid_json'
  | 'unavailable'
  | 'internal';

/** Error bodies say what went wrong in the sender's terms, never the relay's internals. */
export function replyError(
  res: ServerResponse,
  status: number,
  code: IngressErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  replyJson(res, status, { error: { code, message } }, headers);
}

/**
 * Written to the response directly, not through Koa's body handling (type lookup, serializing,
 * length): on the refusal paths, which do little else, that handling was a measurable share of
 * each request (bench: the 404 and 429 rows).
 */
export function replyJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  const all: Record<string, string> = {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  };
  if (bodyLeftToClose(res.req)) all.Connection ??= 'close';
  res.writeHead(status, all);
  res.end(text);
}

/**
 * An answer that comes before the request's body has all arrived keeps the connection only when
 * what is left is small enough to read and drop; a longer body, or a chunked one of unknown
 * length, is not read to the end: the connection closes (gracefully: http/graceful-close.ts).
 */
function bodyLeftToClose(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > SKIPPABLE_BODY_BYTES;
}

export const NOT_FOUND_MESSAGE =
  'No webhook at this address. Check the URL; the webhook may be disabled or deleted.';
