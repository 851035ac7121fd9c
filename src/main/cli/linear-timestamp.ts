/**
 * Linear puts its timestamp in the signed body, not in a header: every payload carries a top-level
 * `webhookTimestamp` (milliseconds), and receivers refuse one more than a minute from now. So that
 * `hookport send --scheme linear` can send a plain sample file, a JSON object without that field
 * gets it, inserted as text before the closing brace. Every other byte of the file is kept as it
 * was (BOM, spacing, key order), and the bytes sent are the bytes signed.
 */

export const WEBHOOK_TIMESTAMP_FIELD = 'webhookTimestamp';

export type LinearBody =
  /** The body with `webhookTimestamp` added. */
  | { kind: 'inserted'; body: Buffer }
  /** The body already carries `webhookTimestamp`: it is sent unchanged. */
  | { kind: 'present' }
  /** Not a JSON object (or not JSON at all): there is no place for the field; sent unchanged. */
  | { kind: 'not-object' };

/** Fatal UTF-8; one leading BOM is skipped, as the relay does when it parses. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

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
  if (Object.hasOwn(payload, WEBHOOK_TIMESTAMP_FIELD)) return { kind: 'present' };

  // A JSON object text ends with its closing brace, followed only by whitespace.
  const closing = body.lastIndexOf(CLOSE_BRACE);
  let last = closing - 1;
  while (last >= 0 && JSON_WHITESPACE.has(body[last]!)) last--;
  // The byte before the closing brace is the opening brace only for an empty object.
  const separator = body[last] === OPEN_BRACE ? '' : ',';
  const field = Buffer.from(`${separator}"${WEBHOOK_TIMESTAMP_FIELD}":${timestampMs}`, 'utf8');
  return {
    kind: 'inserted',
    body: Buffer.concat([body.subarray(0, last + 1), field, body.subarray(last + 1)]),
  };
}
