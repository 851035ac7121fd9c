/**
 * A write refused by a unique key, as either store reports it: SQLite's constraint codes,
 * PostgreSQL's SQLSTATE 23505. The services check names before they write; this is what is left
 * when another relay on the same database wrote the same name in between.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
