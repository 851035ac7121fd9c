import type { IncomingMessage } from 'node:http';
import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Why a form-encoded body is refused, in words that name the fix (PRODUCT.md §22). GitHub's
 * default content type sends the JSON as `payload=<url-encoded JSON>`; it stays
 * `Rejected (invalid JSON)`, and the reason says what to change. Null for any other body.
 */
export function formBodyReason(
  req: IncomingMessage,
  body: Buffer,
  scheme: SignatureSchemeName | null,
): string | null {
  const declared = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const looksLikeForm = body.subarray(0, 8).toString('latin1') === 'payload=';
  if (declared !== FORM && !looksLikeForm) return null;
  // Only the first field is read: a form that carries no payload is some other mistake.
  if (!looksLikeForm && !new URLSearchParams(body.toString('utf8')).has('payload')) return null;
  return scheme === 'github'
    ? `GitHub sent ${FORM}: set the hook's Content type to application/json`
    : `the sender sent ${FORM} (a payload= form field): set its content type to application/json`;
}
