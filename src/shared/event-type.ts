import { z } from 'zod';
import { isCredentialHeader } from './credential-headers.js';
import { HEADER_NAME } from './header-name.js';

export { MAX_EVENT_TYPE_LENGTH, toEventType } from './event-type-value.js';

/** Where a token, URL-token or generic-HMAC webhook finds its event type. */
export type EventTypeSource =
  { kind: 'header'; name: string } | { kind: 'body'; keys: readonly string[] };

export const MAX_EVENT_TYPE_PATH_LENGTH = 200;
const HEADER_PREFIX = 'header:';

/**
 * `header:<name>` reads a request header; anything else is a dotted path into the JSON body
 * (`type`, `event.type`, `$.data.object`), where a segment of digits also indexes an array.
 */
export function parseEventTypePath(path: string): EventTypeSource | { error: string } {
  if (path.length === 0 || path.length > MAX_EVENT_TYPE_PATH_LENGTH) {
    return { error: `must be 1 to ${MAX_EVENT_TYPE_PATH_LENGTH} characters` };
  }
  if (path.toLowerCase().startsWith(HEADER_PREFIX)) {
    const name = path.slice(HEADER_PREFIX.length);
    if (!HEADER_NAME.test(name)) return { error: 'header:<name> needs an HTTP header name' };
    if (isCredentialHeader(name)) {
      return {
        error: `${name} carries a credential and is stored as [redacted]; name another header`,
      };
    }
    return { kind: 'header', name: name.toLowerCase() };
  }
  const body = path.startsWith('$.') ? path.slice(2) : path;
  const keys = body.split('.');
  if (keys.some((key) => key === '' || /\s/.test(key))) {
    return {
      error: 'must be a dotted path into the body such as event.type, or header:<name>',
    };
  }
  return { kind: 'body', keys };
}

/** The webhook setting as the contract and definition files accept it. */
export const eventTypePathSchema = z.string().superRefine((path, ctx) => {
  const parsed = parseEventTypePath(path);
  if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
});

/** Reads a body path: own keys only; a segment of digits indexes an array. */
export function readBodyPath(payload: unknown, keys: readonly string[]): unknown {
  let value = payload;
  for (const key of keys) {
    if (Array.isArray(value)) {
      if (!/^\d+$/.test(key)) return undefined;
      value = (value as unknown[])[Number(key)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) {
      value = (value as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return value;
}
