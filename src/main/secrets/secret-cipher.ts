import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A secret value as stored: AES-256-GCM ciphertext with its IV and authentication tag. */
export interface SealedSecret {
  iv: Buffer;
  tag: Buffer;
  data: Buffer;
}

/** HOOKPORT_MASTER_KEY: 32 bytes written as 64 hex digits or as base64. */
export function parseMasterKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : Buffer.from(value, 'base64');
  if (key.length !== KEY_BYTES) {
    throw new Error('HOOKPORT_MASTER_KEY must be 32 bytes written as 64 hex digits or base64.');
  }
  return key;
}

/**
 * AES-256-GCM, one fresh IV per value, the account name as associated data so that a ciphertext
 * cannot be moved to another account unnoticed.
 */
export function sealSecret(key: Buffer, account: string, value: string): SealedSecret {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(account, 'utf8'));
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

/** The value, or an error naming the account when the key (or the account) is not the one used. */
export function openSecret(key: Buffer, account: string, sealed: SealedSecret): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(account, 'utf8'));
  decipher.setAuthTag(sealed.tag);
  try {
    return Buffer.concat([decipher.update(sealed.data), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(
      `Secret ${account} cannot be decrypted: the master key is not the one it was stored with.`,
    );
  }
}

/** A 32-byte key for one purpose from the master key (HKDF-SHA256): never the master key itself. */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', masterKey, Buffer.alloc(0), `hookport ${purpose}`, KEY_BYTES),
  );
}
