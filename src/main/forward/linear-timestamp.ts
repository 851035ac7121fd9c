import { withWebhookTimestamp, WEBHOOK_TIMESTAMP_FIELD } from '../cli/linear-timestamp.js';

/** Fatal UTF-8; one leading BOM is skipped, as the relay does when it parses. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
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
      if (key !== WEBHOOK_TIMESTAMP_FIELD) continue;
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
      typeof (value as Record<string, unknown>)[WEBHOOK_TIMESTAMP_FIELD] === 'number'
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
