import type { Role } from '../../../shared/contract/define.js';
import { toRecord, type TokenRow, type TokensRepository } from '../tokens.js';
import { row, rows, run, type Calls } from './query.js';

const SELECT = 'SELECT id, name, role, created_at, last_used_at FROM api_tokens';

/**
 * The tokens and sessions tables' SQL, for both stores. `revoke` is the twins' own: it ends the
 * token's sessions in the same step, a transaction on SQLite, one statement on PostgreSQL.
 */
export const tokensCalls: Calls<Omit<TokensRepository, 'revoke'>> = {
  // id breaks ties: token ids are ULIDs, so creation order.
  list: () => rows(`${SELECT} WHERE revoked_at IS NULL ORDER BY created_at, id`, [], toRecord),
  findByHash: (hash) =>
    row(`${SELECT} WHERE token_hash = $1 AND revoked_at IS NULL`, [hash], (r?: TokenRow) =>
      r ? toRecord(r) : null,
    ),
  insert: (t) =>
    run(
      'INSERT INTO api_tokens (id, name, role, token_hash, created_at) VALUES ($1, $2, $3, $4, $5)',
      [t.id, t.name, t.role, t.hash, t.createdAt],
    ),
  touch: (id, at) => run('UPDATE api_tokens SET last_used_at = $1 WHERE id = $2', [at, id]),
  insertSession: (s) =>
    run(
      'INSERT INTO sessions (id_hash, role, token_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [s.hash, s.role, s.tokenId, s.createdAt, s.expiresAt],
    ),
  sessionRole: (hash, now) =>
    row(
      'SELECT role FROM sessions WHERE id_hash = $1 AND expires_at > $2',
      [hash, now],
      (r?: { role: Role }) => r?.role ?? null,
    ),
  deleteSession: (hash) => run('DELETE FROM sessions WHERE id_hash = $1', [hash]),
  pruneSessions: (now) => run('DELETE FROM sessions WHERE expires_at <= $1', [now]),
  // token_id NULL: a session from before sessions recorded the admin token they were opened with.
  endAdminSessionsExcept: (adminKey) =>
    run(
      "DELETE FROM sessions WHERE token_id IS NULL OR (token_id LIKE 'admin:%' AND token_id <> $1)",
      [adminKey],
    ),
};
