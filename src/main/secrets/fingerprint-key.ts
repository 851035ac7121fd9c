import { createHmac, randomBytes } from 'node:crypto';
import { KEY_BYTES } from './secret-cipher.js';
import type { SecretStore } from './secret-store.js';

/**
 * Fingerprints of secret values (issue 24): an HMAC under a relay-local key, not a bare hash, so
 * that a fingerprint cannot be checked against a dictionary of likely values by someone without
 * the key. The key lives where the values live: derived from the master key of the encrypted
 * file or of PostgreSQL (HOOKPORT_MASTER_KEY: every replica derives the same key, so they agree on
 * every fingerprint), or, in a keychain, a random key kept under an account of its own.
 */

const PURPOSE = 'secret fingerprints v1';

/** ':' is not allowed in a factory id, so no team secret's account (`<factory>/<name>`) is this. */
export const FINGERPRINT_KEY_ACCOUNT = 'hookport:fingerprint-key';

/** 8 hex digits (PRODUCT.md §5): enough to tell two values apart on screen. */
const FINGERPRINT_HEX_DIGITS = 8;

export type Fingerprinter = (value: string) => string;

export async function fingerprintKey(store: SecretStore): Promise<Buffer> {
  const derived = store.derivedKey?.(PURPOSE);
  if (derived) return derived;
  const kept = await store.get(FINGERPRINT_KEY_ACCOUNT);
  if (kept !== null) return Buffer.from(kept, 'base64');
  const key = randomBytes(KEY_BYTES);
  await store.set(FINGERPRINT_KEY_ACCOUNT, key.toString('base64'));
  return key;
}

export function fingerprinter(key: Buffer): Fingerprinter {
  return (value) =>
    createHmac('sha256', key).update(value, 'utf8').digest('hex').slice(0, FINGERPRINT_HEX_DIGITS);
}
