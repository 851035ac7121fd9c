import type { Role } from '../../shared/contract/define.js';
import { constantTimeEqual } from '../crypto/constant-time.js';
import type { TokensRepository } from '../store/tokens.js';
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
  /** What a session opened with the admin token records, so that a new admin token ends it. */
  private readonly adminSessionKey: string;

  private constructor(
    private readonly adminToken: string,
    private readonly tokens: TokensRepository,
    private readonly now: () => number,
  ) {
    this.adminSessionKey = `admin:${hashToken(adminToken).slice(0, 16)}`;
  }

  /** Sessions opened with an earlier admin token end here. */
  static async start(
    adminToken: string,
    tokens: TokensRepository,
    now: () => number = Date.now,
  ): Promise<AdminAuth> {
    const auth = new AdminAuth(adminToken, tokens, now);
    await tokens.endAdminSessionsExcept(auth.adminSessionKey);
    return auth;
  }

  async roleForToken(value: string): Promise<Role | null> {
    return (await this.holderOf(value))?.role ?? null;
  }

  /** Who a token value belongs to: the admin token (no id) or a minted token, whose use is noted. */
  async holderOf(value: string): Promise<TokenHolder | null> {
    const holder = await this.lookUp(value);
    if (holder?.tokenId) await this.tokens.touch(holder.tokenId, this.now());
    return holder;
  }

  /** Whether a token is still good, without noting a use (an open event stream asks often). */
  async isValidToken(value: string): Promise<boolean> {
    return (await this.lookUp(value)) !== null;
  }

  private async lookUp(value: string): Promise<TokenHolder | null> {
    if (constantTimeEqual(value, this.adminToken)) return { role: 'manage', tokenId: null };
    const minted = await this.tokens.findByHash(hashToken(value));
    return minted ? { role: minted.role, tokenId: minted.id } : null;
  }

  async startSession({ role, tokenId }: TokenHolder): Promise<string> {
    const value = newSessionValue();
    const createdAt = this.now();
    await this.tokens.pruneSessions(createdAt);
    await this.tokens.insertSession({
      hash: hashToken(value),
      role,
      tokenId: tokenId ?? this.adminSessionKey,
      createdAt,
      expiresAt: createdAt + SESSION_TTL_MS,
    });
    return value;
  }

  roleForSession(value: string): Promise<Role | null> {
    return this.tokens.sessionRole(hashToken(value), this.now());
  }

  endSession(value: string): Promise<void> {
    return this.tokens.deleteSession(hashToken(value));
  }

  /** A single-use code for the printed login link, so later starts need not print the token. */
  mintLoginCode(): string {
    const code = `hpl_${newSessionValue()}`;
    this.loginCodes.set(hashToken(code), this.now() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** A login link may carry a one-time code or any valid token. */
  async redeemLogin(value: string): Promise<TokenHolder | null> {
    const key = hashToken(value);
    const expiresAt = this.loginCodes.get(key);
    if (expiresAt !== undefined) {
      this.loginCodes.delete(key);
      return expiresAt > this.now() ? { role: 'manage', tokenId: null } : null;
    }
    return this.holderOf(value);
  }
}
