import type { Context } from 'koa';

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
  ctx: Context,
  status: number,
  code: IngressErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  replyJson(ctx, status, { error: { code, message } }, headers);
}

/**
 * Written to the response directly, not through Koa's body handling (type lookup, serializing,
 * length): on the refusal paths, which do little else, that handling was a measurable share of
 * each request (bench: the 404 and 429 rows).
 */
export function replyJson(
  ctx: Context,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  ctx.respond = false;
  ctx.res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  ctx.res.end(text);
}

export const NOT_FOUND_MESSAGE =
  'No webhook at this address. Check the URL; the webhook may be disabled or deleted.';
