import type { Role } from '../../shared/contract/define.js';
import { constantTimeEqual } from '../crypto/constant-time.js';
import type { TokensRepository } from '../store/tokens-repo.js';
import { hashToken, newSessionValue } from './token-values.js';

export interface TokenHolder {
  role: Role;
  tokenId: string | null;
}

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
    return this.holderOf(value)?.role ?? null;
  }

  /** Who a token value belongs to: the admin token (no id) or a minted token. */
  holderOf(value: string): TokenHolder | null {
    if (constantTimeEqual(value, this.adminToken)) return { role: 'manage', tokenId: null };
    const minted = this.tokens.findByHash(hashToken(value));
    if (!minted) return null;
    this.tokens.touch(minted.id, this.now());
    return { role: minted.role, tokenId: minted.id };
  }

  startSession({ role, tokenId }: TokenHolder): string {
    const value = newSessionValue();
    const createdAt = this.now();
    this.tokens.pruneSessions(createdAt);
    this.tokens.insertSession({
      hash: hashToken(value),
      role,
      tokenId,
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
  redeemLogin(value: string): TokenHolder | null {
    const key = hashToken(value);
    const expiresAt = this.loginCodes.get(key);
    if (expiresAt !== undefined) {
      this.loginCodes.delete(key);
      return expiresAt > this.now() ? { role: 'manage', tokenId: null } : null;
    }
    return this.holderOf(value);
  }
}
