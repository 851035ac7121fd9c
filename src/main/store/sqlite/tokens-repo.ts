import type { TokensRepository } from '../tokens.js';
import { tokensCalls } from '../sql/tokens.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { sqliteRepository } from './queries.js';

/** sql/tokens.ts on SQLite; revoking is a transaction of two statements. */
export function createTokensRepository(db: Db): Sync<TokensRepository> {
  const revoke = db.prepare(
    'UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  );
  const endSessionsOf = db.prepare('DELETE FROM sessions WHERE token_id = ?');
  return {
    ...sqliteRepository(db, tokensCalls),
    /** Revoking a token also ends the browser sessions opened with it. */
    revoke: db.transaction((id: string, at: number): boolean => {
      if (revoke.run(at, id).changes !== 1) return false;
      endSessionsOf.run(id);
      return true;
    }),
  };
}
