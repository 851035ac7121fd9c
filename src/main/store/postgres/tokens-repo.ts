import type { Role } from '../../../shared/contract/define.js';
import { toRecord, type TokenRow, type TokensRepository } from '../tokens.js';
import type { Queryable } from './client.js';

const COLUMNS = 'id, name, role, created_at, last_used_at';

/** tokens-repo.ts on PostgreSQL: every replica checks the same tokens and sessions. */
export function createPostgresTokensRepository(q: Queryable): TokensRepository {
  return {
    // id breaks ties: token ids are ULIDs, so creation order, as SQLite's row order gives it.
    list: async () => {
      const { rows } = await q.query<TokenRow>(
        `SELECT ${COLUMNS} FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at, id`,
      );
      return rows.map(toRecord);
    },
    findByHash: async (hash) => {
      const { rows } = await q.query<TokenRow>(
        `SELECT ${COLUMNS} FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
        [hash],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    insert: async (t) => {
      await q.query(
        'INSERT INTO api_tokens (id, name, role, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
        [t.id, t.name, t.role, t.hash, t.createdAt],
      );
    },
    touch: async (id, at) => {
      await q.query('UPDATE api_tokens SET last_used_at = $1 WHERE id = $2', [at, id]);
    },
    // One statement, so atomic even on the pool: the token and its sessions end together.
    revoke: async (id, at) => {
      const { rows } = await q.query<{ revoked: boolean }>(
        `WITH revoked AS (
           UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id
         ), ended AS (
           DELETE FROM sessions WHERE token_id IN (SELECT id FROM revoked)
         )
         SELECT EXISTS (SELECT 1 FROM revoked) AS revoked`,
        [id, at],
      );
      return rows[0]!.revoked;
    },
    insertSession: async (s) => {
      await q.query(
        'INSERT INTO sessions (id_hash, role, token_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [s.hash, s.role, s.tokenId, s.createdAt, s.expiresAt],
      );
    },
    sessionRole: async (hash, now) => {
      const { rows } = await q.query<{ role: Role }>(
        'SELECT role FROM sessions WHERE id_hash = $1 AND expires_at > $2',
        [hash, now],
      );
      return rows[0]?.role ?? null;
    },
    deleteSession: async (hash) => {
      await q.query('DELETE FROM sessions WHERE id_hash = $1', [hash]);
    },
    pruneSessions: async (now) => {
      await q.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
    },
    // token_id NULL: a session from before sessions recorded the admin token they were opened with.
    endAdminSessionsExcept: async (adminKey) => {
      await q.query(
        "DELETE FROM sessions WHERE token_id IS NULL OR (token_id LIKE 'admin:%' AND token_id <> $1)",
        [adminKey],
      );
    },
  };
}
