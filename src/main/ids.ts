import { randomBytes, randomFillSync, randomInt } from 'node:crypto';

const UID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Crockford's base32, as ULIDs are written. */
const ULID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ULID_DIGITS = Buffer.from(ULID_ALPHABET, 'latin1');
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
const MAX_ULID_TIME = 2 ** 48 - 1;

/**
 * Cryptographic randomness for ULIDs, one byte per character, drawn from a pool refilled 4 KB at
 * a time: asking the OS once per character was several percent of the accept path's time.
 */
const pool = Buffer.alloc(4096);
let drawn = pool.length;
const randomDigit = (): number => {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return pool[drawn++]! >> 3;
};

/**
 * Monotonic ULIDs (the `ulid` package's monotonicFactory, written in place): IDs minted in the
 * same millisecond, or while the clock stands behind the last one, keep its time and take its
 * random part plus one, so they still sort in arrival order. Each ID is written into one buffer
 * with its prefix and read out as one string: the package built each of its 26 characters as a
 * string of its own, a thousand bytes of garbage per delivery on the thread that answers senders.
 */
const lastRandom = new Uint8Array(RANDOM_CHARS);
let lastTime = -1;
const scratch = Buffer.alloc(64);

function nextUlid(prefix: string, now: number): string {
  if (!Number.isInteger(now) || now < 0 || now > MAX_ULID_TIME) {
    throw new Error(`cannot make a ULID for time ${now}`);
  }
  if (now <= lastTime) {
    incrementRandom();
  } else {
    lastTime = now;
    for (let i = 0; i < RANDOM_CHARS; i++) lastRandom[i] = randomDigit();
  }
  const start = scratch.write(prefix, 0, 'latin1');
  let time = lastTime;
  for (let i = start + TIME_CHARS - 1; i >= start; i--) {
    const digit = time % 32;
    scratch[i] = ULID_DIGITS[digit]!;
    time = (time - digit) / 32;
  }
  const randomAt = start + TIME_CHARS;
  for (let i = 0; i < RANDOM_CHARS; i++) scratch[randomAt + i] = ULID_DIGITS[lastRandom[i]!]!;
  return scratch.toString('latin1', 0, randomAt + RANDOM_CHARS);
}

/** The random part plus one, in base 32; 2^80 IDs in one millisecond is not a case to handle. */
function incrementRandom(): void {
  for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
    if (lastRandom[i]! < 31) {
      lastRandom[i]!++;
      return;
    }
    lastRandom[i] = 0;
  }
  throw new Error('cannot increment a ULID past its largest random part');
}

function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += UID_ALPHABET[randomInt(UID_ALPHABET.length)];
  return out;
}

export const newWebhookUid = (): string => `wh_${randomAlphanumeric(24)}`;
export const newDeliveryId = (now = Date.now()): string => nextUlid('dlv_', now);
export const newRunId = (now = Date.now()): string => nextUlid('run_', now);
export const newAutomationId = (): string => nextUlid('aut_', Date.now());
export const newTokenId = (): string => nextUlid('tok_', Date.now());
export const newAttemptId = (now = Date.now()): string => nextUlid('fwd_', now);

/** 32 random bytes, base64url: the shape of every secret the relay generates (PRODUCT.md §4). */
export const newSecretValue = (): string => randomBytes(32).toString('base64url');
