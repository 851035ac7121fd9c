import { isUtf8 } from 'node:buffer';
import Database from 'better-sqlite3';
import { parseJsonBody, type ParseResult } from './parse-json.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * SQLite's RFC 8259 check (json_valid with flag 1), on a connection of its own that holds no
 * data. Opened on first use: a relay whose every webhook needs the parsed tree never opens it.
 */
let strictJson: Database.Statement<[Buffer], number> | null = null;

function sqliteSaysValid(text: Buffer): boolean {
  strictJson ??= new Database(':memory:')
    .prepare<[Buffer], number>('SELECT json_valid(CAST(? AS TEXT), 1)')
    .pluck();
  return strictJson.get(text) === 1;
}

/**
 * Whether the body is JSON, with the same verdict and reason as parseJsonBody, without building
 * the parsed tree or a decoded copy of the body: for a delivery nothing will evaluate (no
 * automation selects its webhook, its event type is not in its body). Under load that tree and
 * copy were most of what each request allocated, and the young-generation collections they
 * caused promoted the requests still waiting for their commit.
 *
 * Only an acceptance is taken from SQLite; a body it refuses is parsed as before, so the reason
 * is JSON.parse's and anything SQLite alone refuses (nesting deeper than its 1,000 levels) is
 * still accepted. What SQLite would wrongly accept is kept from it: invalid UTF-8 (it checks
 * none) and a NUL byte (its text ends there); the differential test holds it to the rest.
 */
export function checkJsonBody(body: Buffer): ParseResult {
  // Read byte by byte: no view of the first three bytes made per request to compare them.
  const bom = body.length >= 3 && body[0] === BOM[0] && body[1] === BOM[1] && body[2] === BOM[2];
  const text = bom ? body.subarray(3) : body;
  if (isUtf8(text) && !text.includes(0) && sqliteSaysValid(text)) {
    return { ok: true, value: undefined };
  }
  return parseJsonBody(body);
}
