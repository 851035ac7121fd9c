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
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.status = status;
  ctx.body = { error: { code, message } };
}

export const NOT_FOUND_MESSAGE =
  'No webhook at this address. Check the URL; the webhook may be disabled or deleted.';
