import { randomBytes, randomFillSync, randomInt } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const UID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Cryptographic randomness for ULIDs, one byte per character, drawn from a pool refilled 4 KB at
 * a time: ulid's own source asks the OS once per character, which was several percent of the
 * accept path's time.
 */
const pool = Buffer.alloc(4096);
let drawn = pool.length;
const randomFraction = (): number => {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++]! / 256;
};

/** Monotonic so that IDs minted in the same millisecond still sort in arrival order. */
const nextUlid = monotonicFactory(randomFraction);

function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += UID_ALPHABET[randomInt(UID_ALPHABET.length)];
  return out;
}

export const newWebhookUid = (): string => `wh_${randomAlphanumeric(24)}`;
export const newDeliveryId = (now = Date.now()): string => `dlv_${nextUlid(now)}`;
export const newRunId = (now = Date.now()): string => `run_${nextUlid(now)}`;
export const newAutomationId = (): string => `aut_${nextUlid()}`;
export const newTokenId = (): string => `tok_${nextUlid()}`;
export const newAttemptId = (now = Date.now()): string => `fwd_${nextUlid(now)}`;

/** 32 random bytes, base64url: the shape of every secret the relay generates (PRODUCT.md §4). */
export const newSecretValue = (): string => randomBytes(32).toString('base64url');
