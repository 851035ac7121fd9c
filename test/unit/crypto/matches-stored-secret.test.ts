import { describe, expect, it } from 'vitest';
import { matchesStoredSecret } from '../../../src/main/crypto/constant-time.js';

const secret = 'hp_tok_0123456789abcdefghijklmnopqrstuvwxyzABCD';

/** A webhook's token check: only the stored secret itself matches. */
describe('matchesStoredSecret', () => {
  it('matches the secret exactly', () => {
    expect(matchesStoredSecret(secret, secret)).toBe(true);
    expect(matchesStoredSecret('ø☃𝄞', 'ø☃𝄞')).toBe(true);
  });

  it('refuses a candidate that differs in any one character, first to last', () => {
    for (let i = 0; i < secret.length; i++) {
      const changed = secret.slice(0, i) + (secret[i] === 'x' ? 'y' : 'x') + secret.slice(i + 1);
      expect(matchesStoredSecret(changed, secret)).toBe(false);
    }
  });

  it('refuses a prefix, an extension, a repetition, another case and the empty string', () => {
    expect(matchesStoredSecret(secret.slice(0, -1), secret)).toBe(false);
    expect(matchesStoredSecret(`${secret}E`, secret)).toBe(false);
    expect(matchesStoredSecret(secret + secret, secret)).toBe(false);
    expect(matchesStoredSecret(secret.toUpperCase(), secret)).toBe(false);
    expect(matchesStoredSecret('', secret)).toBe(false);
  });

  it('never matches an empty secret', () => {
    expect(matchesStoredSecret('', '')).toBe(false);
    expect(matchesStoredSecret('anything', '')).toBe(false);
  });
});
