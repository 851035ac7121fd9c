import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../crypto/constant-time.js';

export type DigestEncoding = 'hex' | 'base64';

/** What a provider signs, in order: strings as UTF-8, the body as its raw bytes. */
export type SignedContent = readonly (string | Buffer)[];

export function hmacSha256(key: Buffer, content: SignedContent, encoding: DigestEncoding): string {
  const mac = createHmac('sha256', key);
  for (const part of content) mac.update(part);
  return mac.digest(encoding);
}

/** Whether any candidate equals the expected signature. Every candidate is compared, in constant time. */
export function anyCandidateMatches(candidates: readonly string[], expected: string): boolean {
  let matched = false;
  for (const candidate of candidates) {
    if (constantTimeEqual(candidate, expected)) matched = true;
  }
  return matched;
}
