import { linear as provider } from '../../../shared/providers/linear.js';
import type { PrepareBodyInput, PreparedBody, VerifyInput } from './scheme.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader } from './headers.js';
import { fail, SigningError } from './verification.js';
import { genericSummary, oneLine, type Payload, text } from './summaries/summary-text.js';

/**
 * Linear (linear.app/developers/webhooks, "Securing webhooks"): `Linear-Signature` holds the hex
 * HMAC-SHA256 of the body keyed with the webhook's signing secret. The timestamp is not a header
 * but the body's `webhookTimestamp` (milliseconds), read only after the signature matched, so an
 * unauthenticated body is never parsed. Delivery: `Linear-Delivery`.
 */

/** Linear asks for `webhookTimestamp` within a minute of now; its SDK rejects a delta over 60 s. */
export const TOLERANCE_MS = 60 * 1000;

const SIGNATURE_HEADER = 'Linear-Signature';
const TIMESTAMP_FIELD = 'webhookTimestamp';

/** Fatal UTF-8; one leading BOM is skipped (PRODUCT.md §3). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

function readPayload(body: Buffer): unknown {
  try {
    return JSON.parse(utf8.decode(body));
  } catch {
    return fail(`body is not JSON, so ${TIMESTAMP_FIELD} cannot be checked`);
  }
}

function checkWebhookTimestamp({ body, now }: VerifyInput): void {
  const payload = readPayload(body);
  const timestamp =
    typeof payload === 'object' && payload !== null && Object.hasOwn(payload, TIMESTAMP_FIELD)
      ? (payload as Record<string, unknown>)[TIMESTAMP_FIELD]
      : undefined;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp) || timestamp < 0) {
    fail(`body has no ${TIMESTAMP_FIELD} in milliseconds`);
  }
  if (!(Math.abs(now - timestamp) <= TOLERANCE_MS)) {
    fail(`${TIMESTAMP_FIELD} outside the ${TOLERANCE_MS / 1000} s tolerance`);
  }
}

/**
 * Linear (linear.app/developers/webhooks): `type` (`Issue`, `Comment`…), `action` (`create`,
 * `update`, `remove`) and `data`; an issue's `identifier` (`ENG-12`) and `title`.
 */
function linearSummary(eventType: string | null, payload: Payload): string | null {
  const action = text(payload, 'action');
  const identifier = text(payload, 'data', 'identifier');
  const title = text(payload, 'data', 'title') ?? text(payload, 'data', 'body');
  if (identifier === undefined && title === undefined) return genericSummary(eventType, payload);
  const head = [eventType, action].filter(Boolean).join(' ');
  const what = identifier === undefined ? (title ?? '') : `${identifier}: ${title ?? ''}`;
  return oneLine(`${head} ${what}`);
}

// Sending and forwarding: the body as Linear would send it now.

/**
 * Linear puts its timestamp in the signed body, not in a header: every payload carries a top-level
 * `webhookTimestamp` (milliseconds), and receivers refuse one more than a minute from now. So that
 * `hookport send --scheme linear` can send a plain sample file, a JSON object without that field
 * gets it, inserted as text before the closing brace. Every other byte of the file is kept as it
 * was (BOM, spacing, key order), and the bytes sent are the bytes signed.
 */
export type LinearBody =
  /** The body with `webhookTimestamp` added. */
  | { kind: 'inserted'; body: Buffer }
  /** The body already carries `webhookTimestamp`: it is sent unchanged. */
  | { kind: 'present' }
  /** Not a JSON object (or not JSON at all): there is no place for the field; sent unchanged. */
  | { kind: 'not-object' };

const CLOSE_BRACE = 0x7d;
const OPEN_BRACE = 0x7b;
/** JSON's insignificant whitespace (RFC 8259 §2). */
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function parseObject(body: Buffer): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(utf8.decode(body));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function withWebhookTimestamp(body: Buffer, timestampMs: number): LinearBody {
  const payload = parseObject(body);
  if (payload === null) return { kind: 'not-object' };
  if (Object.hasOwn(payload, TIMESTAMP_FIELD)) return { kind: 'present' };

  // A JSON object text ends with its closing brace, followed only by whitespace.
  const closing = body.lastIndexOf(CLOSE_BRACE);
  let last = closing - 1;
  while (last >= 0 && JSON_WHITESPACE.has(body[last]!)) last--;
  // The byte before the closing brace is the opening brace only for an empty object.
  const separator = body[last] === OPEN_BRACE ? '' : ',';
  const field = Buffer.from(`${separator}"${TIMESTAMP_FIELD}":${timestampMs}`, 'utf8');
  return {
    kind: 'inserted',
    body: Buffer.concat([body.subarray(0, last + 1), field, body.subarray(last + 1)]),
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUMBER_BYTE = /[-+.0-9eE]/;

/** Where each top-level `"webhookTimestamp": <number>` value sits in the bytes. */
function timestampValueRanges(body: Buffer): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i]!;
    if (byte === QUOTE) {
      const start = i;
      for (i++; i < body.length && body[i] !== QUOTE; i++) if (body[i] === BACKSLASH) i++;
      if (depth !== 1 || !expectKey) continue;
      expectKey = false;
      const key = JSON.parse(body.subarray(start, i + 1).toString('utf8')) as string;
      if (key !== TIMESTAMP_FIELD) continue;
      let j = i + 1;
      while (j < body.length && body[j] !== 0x3a) j++;
      j++;
      while (j < body.length && /\s/.test(String.fromCharCode(body[j]!))) j++;
      let end = j;
      while (end < body.length && NUMBER_BYTE.test(String.fromCharCode(body[end]!))) end++;
      if (end > j) ranges.push([j, end]);
      continue;
    }
    if (byte === 0x7b || byte === 0x5b) {
      depth++;
      expectKey = byte === 0x7b && depth === 1;
    } else if (byte === 0x7d || byte === 0x5d) depth--;
    else if (byte === 0x2c && depth === 1) expectKey = true;
  }
  return ranges;
}

function isObjectWithNumericTimestamp(body: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(utf8.decode(body));
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as Record<string, unknown>)[TIMESTAMP_FIELD] === 'number'
    );
  } catch {
    return false;
  }
}

/**
 * Linear signs a timestamp inside the body (`webhookTimestamp`, ms) and receivers refuse one
 * more than a minute old, so a stored delivery forwarded later needs a fresh one. The number is
 * replaced in place (or added, as `hookport send` does); every other byte stays as stored.
 */
export function refreshWebhookTimestamp(
  body: Buffer,
  nowMs: number,
): { body: Buffer; note: string | null } {
  if (isObjectWithNumericTimestamp(body)) {
    const ranges = timestampValueRanges(body);
    const parts: Buffer[] = [];
    let from = 0;
    for (const [start, end] of ranges) {
      parts.push(body.subarray(from, start), Buffer.from(String(nowMs)));
      from = end;
    }
    parts.push(body.subarray(from));
    return { body: Buffer.concat(parts), note: `linear: webhookTimestamp set to ${nowMs}` };
  }
  const added = withWebhookTimestamp(body, nowMs);
  return added.kind === 'inserted'
    ? { body: added.body, note: `linear: webhookTimestamp ${nowMs} added` }
    : { body, note: null };
}

/** `hookport send`: a sample file gets the field; a stored delivery forwarded gets a fresh one. */
function prepareBody({ body, nowMs, timestampSeconds, purpose }: PrepareBodyInput): PreparedBody {
  if (purpose === 'forward') return refreshWebhookTimestamp(body, nowMs);
  const timestampMs = timestampSeconds === null ? nowMs : timestampSeconds * 1000;
  const result = withWebhookTimestamp(body, timestampMs);
  if (result.kind === 'present' && timestampSeconds !== null) {
    throw new SigningError(
      '--timestamp: the body already carries webhookTimestamp, which is what Linear signs; remove it from the file or drop --timestamp',
    );
  }
  if (result.kind === 'inserted') {
    return {
      body: result.body,
      note: `linear: added "webhookTimestamp":${timestampMs} to the body, as Linear sends it; the bytes sent are the bytes signed`,
    };
  }
  return {
    body,
    note:
      result.kind === 'not-object'
        ? 'linear: the body is not a JSON object, so it has no webhookTimestamp; Linear receivers refuse it'
        : null,
  };
}

export const linear = defineHmacScheme({
  provider,
  summarize: linearSummary,
  prepareBody,
  encoding: 'hex',
  toleranceSeconds: null,
  read: ({ headers, body }) => ({
    candidates: [requireHeader(headers, SIGNATURE_HEADER)],
    content: [body],
    timestamp: null,
  }),
  // The body must already carry webhookTimestamp: sign() returns headers only.
  write: ({ body, sign }) => ({ [SIGNATURE_HEADER]: sign([body]) }),
  checkAuthenticatedBody: checkWebhookTimestamp,
  timestampInBody: true,
});
