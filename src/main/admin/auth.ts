import type { Role } from '../../shared/contract/define.js';
import { constantTimeEqual } from '../crypto/constant-time.js';
import type { TokensRepository } from '../store/tokens-repo.js';
import { hashToken, newSessionValue } from './token-values.js';

const SESSION_TTL_MS = 30 * 24 * 60 * 60_000;
const LOGIN_CODE_TTL_MS = 15 * 60_000;

/**
 * Who is calling the admin API: the `manage` admin token, a minted token (manage or view), a UI
 * session cookie, or a one-time login code that `hookport serve` prints instead of the token.
 */
export class AdminAuth {
  private readonly loginCodes = new Map<string, number>();

  constructor(
    private readonly adminToken: string,
    private readonly tokens: TokensRepository,
    private readonly now: () => number = Date.now,
  ) {}

  roleForToken(value: string): Role | null {
    if (constantTimeEqual(value, this.adminToken)) return 'manage';
    const minted = this.tokens.findByHash(hashToken(value));
    if (!minted) return null;
    this.tokens.touch(minted.id, this.now());
    return minted.role;
  }

  startSession(role: Role): string {
    const value = newSessionValue();
    const createdAt = this.now();
    this.tokens.pruneSessions(createdAt);
    this.tokens.insertSession({
      hash: hashToken(value),
      role,
      createdAt,
      expiresAt: createdAt + SESSION_TTL_MS,
    });
    return value;
  }

  roleForSession(value: string): Role | null {
    return this.tokens.sessionRole(hashToken(value), this.now());
  }

  endSession(value: string): void {
    this.tokens.deleteSession(hashToken(value));
  }

  /** A single-use code for the printed login link, so later starts need not print the token. */
  mintLoginCode(): string {
    const code = `hpl_${newSessionValue()}`;
    this.loginCodes.set(hashToken(code), this.now() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** A login link may carry a one-time code or any valid token. */
  redeemLogin(value: string): Role | null {
    const key = hashToken(value);
    const expiresAt = this.loginCodes.get(key);
    if (expiresAt !== undefined) {
      this.loginCodes.delete(key);
      return expiresAt > this.now() ? 'manage' : null;
    }
    return this.roleForToken(value);
  }
}
