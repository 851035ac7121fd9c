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

/**
 * Extra response headers as one flat list, name then value (`['Retry-After', '5']`), as
 * `writeHead` takes them: no object per answer to build, spread and walk again.
 */
export type HeaderList = readonly string[];

const NO_HEADERS: HeaderList = [];
const JSON_TYPE = 'application/json; charset=utf-8';

/** Error bodies say what went wrong in the sender's terms, never the relay's internals. */
export function replyError(
  res: ServerResponse,
  status: number,
  code: IngressErrorCode,
  message: string,
  headers: HeaderList = NO_HEADERS,
): void {
  // The body as text at once: a refusal builds no object to serialize (`code` is one of ours).
  replyText(
    res,
    status,
    `{"error":{"code":"${code}","message":${JSON.stringify(message)}}}`,
    headers,
  );
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
  headers: HeaderList = NO_HEADERS,
): void {
  replyText(res, status, JSON.stringify(body), headers);
}

/**
 * The 202 (PRODUCT §3 step 9): `{"delivery_id":"dlv_…"}`, written as text (a delivery ID is
 * letters, digits and `_`: nothing to escape), with no object made to serialize.
 */
export function replyAccepted(res: ServerResponse, deliveryId: string): void {
  replyText(res, 202, `{"delivery_id":"${deliveryId}"}`, NO_HEADERS);
}

/** `text`: JSON already serialized. */
function replyText(res: ServerResponse, status: number, text: string, headers: HeaderList): void {
  const length = String(Buffer.byteLength(text));
  const close = bodyLeftToClose(res.req) && !hasHeader(headers, 'connection');
  const all = [...headers, 'Content-Type', JSON_TYPE, 'Content-Length', length];
  if (close) all.push('Connection', 'close');
  res.writeHead(status, all);
  res.end(text);
}

function hasHeader(headers: HeaderList, lowerCaseName: string): boolean {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i]!.toLowerCase() === lowerCaseName) return true;
  }
  return false;
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
