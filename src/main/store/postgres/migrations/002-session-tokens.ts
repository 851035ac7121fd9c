/** Version 2 on PostgreSQL: SQLite's 002-session-tokens. */
export const sessionTokens = `
  ALTER TABLE sessions ADD COLUMN token_id TEXT;
  CREATE INDEX sessions_by_token ON sessions (token_id) WHERE token_id IS NOT NULL;
`;
