import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { deriveKey, KEY_BYTES, openSecret, parseMasterKey, sealSecret } from './secret-cipher.js';
import type { SecretStore } from './secret-store.js';

const fileSchema = z.object({
  version: z.literal(1),
  entries: z.record(z.string(), z.object({ iv: z.string(), tag: z.string(), data: z.string() })),
});
type SecretsFile = z.infer<typeof fileSchema>;

/** Writes so that a crash leaves either the old file or the new one, never half of each. */
function writeFileDurably(path: string, content: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * The master key: HOOKPORT_MASTER_KEY (32 bytes, base64 or hex) when set, else a 0600 key file
 * created beside the store on first use.
 */
export function loadMasterKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv !== undefined && fromEnv !== '') return parseMasterKey(fromEnv);
  const keyFile = join(dataDir, 'master.key');
  if (!existsSync(keyFile)) writeFileDurably(keyFile, randomBytes(KEY_BYTES).toString('base64'));
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) throw new Error(`${keyFile} does not hold a 32-byte base64 key.`);
  return key;
}

/** Values sealed by secret-cipher.ts, in one JSON file written durably. */
export class EncryptedFileSecretStore implements SecretStore {
  readonly backend = 'file' as const;
  readonly description: string;
  private readonly path: string;
  private readonly key: Buffer;

  constructor(dataDir: string, key: Buffer) {
    this.path = join(dataDir, 'secrets.enc');
    this.key = key;
    this.description = `encrypted file ${this.path}`;
  }

  get(account: string): Promise<string | null> {
    const entry = this.read().entries[account];
    if (!entry) return Promise.resolve(null);
    try {
      return Promise.resolve(
        openSecret(this.key, account, {
          iv: Buffer.from(entry.iv, 'base64'),
          tag: Buffer.from(entry.tag, 'base64'),
          data: Buffer.from(entry.data, 'base64'),
        }),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  set(account: string, value: string): Promise<void> {
    const sealed = sealSecret(this.key, account, value);
    const file = this.read();
    file.entries[account] = {
      iv: sealed.iv.toString('base64'),
      tag: sealed.tag.toString('base64'),
      data: sealed.data.toString('base64'),
    };
    this.write(file);
    return Promise.resolve();
  }

  derivedKey(purpose: string): Buffer {
    return deriveKey(this.key, purpose);
  }

  delete(account: string): Promise<void> {
    const file = this.read();
    if (account in file.entries) {
      delete file.entries[account];
      this.write(file);
    }
    return Promise.resolve();
  }

  private read(): SecretsFile {
    if (!existsSync(this.path)) return { version: 1, entries: {} };
    return fileSchema.parse(JSON.parse(readFileSync(this.path, 'utf8')));
  }

  private write(file: SecretsFile): void {
    writeFileDurably(this.path, JSON.stringify(file));
  }
}
