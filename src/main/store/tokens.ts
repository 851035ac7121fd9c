import type { Role } from '../../shared/contract/define.js';

export interface ApiTokenRecord {
  id: string;
  name: string;
  role: Role;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface TokenRow {
  id: string;
  name: string;
  role: Role;
  created_at: number;
  last_used_at: number | null;
}

export const toRecord = (r: TokenRow): ApiTokenRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
});

/** Minted admin tokens and UI sessions; both are kept as SHA-256 hashes, never as values. */
export interface TokensRepository {
  list(): Promise<ApiTokenRecord[]>;
  findByHash(hash: string): Promise<ApiTokenRecord | null>;
  insert(t: {
    id: string;
    name: string;
    role: Role;
    hash: string;
    createdAt: number;
  }): Promise<void>;
  touch(id: string, at: number): Promise<void>;
  /** Revoking a token also ends the browser sessions opened with it. */
  revoke(id: string, at: number): Promise<boolean>;
  insertSession(s: {
    hash: string;
    role: Role;
    /** The minted token's id, or `admin:` and a fingerprint of the admin token. */
    tokenId: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  sessionRole(hash: string, now: number): Promise<Role | null>;
  deleteSession(hash: string): Promise<void>;
  pruneSessions(now: number): Promise<void>;
  /** At start: sessions opened with an admin token other than this one's end. */
  endAdminSessionsExcept(adminKey: string): Promise<void>;
}
