import { type ApiTokenRecord, type TokenRow, toRecord, type TokensRepository } from '../tokens.js';
import type { Sync } from '../store.js';
import type { Role } from '../../../shared/contract/define.js';
import type { Db } from './db.js';

/** Minted admin tokens and UI sessions; both are kept as SHA-256 hashes, never as values. */
export function createTokensRepository(db: Db): Sync<TokensRepository> {
  const list = db.prepare<[], TokenRow>(
    'SELECT * FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at',
  );
  const byHash = db.prepare<[string], TokenRow>(
    'SELECT * FROM api_tokens WHERE token_hash = ? AND revoked_at IS NULL',
  );
  const insert = db.prepare(
    'INSERT INTO api_tokens (id, name, role, token_hash, created_at) VALUES (@id, @name, @role, @hash, @createdAt)',
  );
  const touch = db.prepare('UPDATE api_tokens SET last_used_at = ? WHERE id = ?');
  const revoke = db.prepare(
    'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const endSessionsOf = db.prepare('DELETE FROM sessions WHERE token_id = ?');
  const insertSession = db.prepare(
    'INSERT INTO sessions (id_hash, role, token_id, created_at, expires_at) VALUES (@hash, @role, @tokenId, @createdAt, @expiresAt)',
  );
  const session = db.prepare<[string, number], { role: Role }>(
    'SELECT role FROM sessions WHERE id_hash = ? AND expires_at > ?',
  );
  const deleteSession = db.prepare('DELETE FROM sessions WHERE id_hash = ?');
  const pruneSessions = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  // token_id NULL: a session from before sessions recorded the admin token they were opened with.
  const endAdminSessionsExcept = db.prepare(
    "DELETE FROM sessions WHERE token_id IS NULL OR (token_id LIKE 'admin:%' AND token_id <> ?)",
  );

  return {
    list: (): ApiTokenRecord[] => list.all().map(toRecord),
    findByHash: (hash: string): ApiTokenRecord | null => {
      const row = byHash.get(hash);
      return row ? toRecord(row) : null;
    },
    insert: (t: {
      id: string;
      name: string;
      role: Role;
      hash: string;
      createdAt: number;
    }): void => {
      insert.run(t);
    },
    touch: (id: string, at: number): void => {
      touch.run(at, id);
    },
    /** Revoking a token also ends the browser sessions opened with it. */
    revoke: db.transaction((id: string, at: number): boolean => {
      if (revoke.run(at, id).changes !== 1) return false;
      endSessionsOf.run(id);
      return true;
    }),
    insertSession: (s: {
      hash: string;
      role: Role;
      /** The minted token's id, or `admin:` and a fingerprint of the admin token. */
      tokenId: string;
      createdAt: number;
      expiresAt: number;
    }): void => {
      insertSession.run(s);
    },
    sessionRole: (hash: string, now: number): Role | null => session.get(hash, now)?.role ?? null,
    deleteSession: (hash: string): void => {
      deleteSession.run(hash);
    },
    pruneSessions: (now: number): void => {
      pruneSessions.run(now);
    },
    /** At start: sessions opened with an admin token other than this one's end. */
    endAdminSessionsExcept: (adminKey: string): void => {
      endAdminSessionsExcept.run(adminKey);
    },
  };
}
