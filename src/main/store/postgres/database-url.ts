/**
 * Checks a `--database` / HOOKPORT_DATABASE_URL value; the message never repeats a password. Its
 * own module, without the driver: `hookport serve` checks the flag before it knows whether the
 * relay runs on PostgreSQL, and a SQLite relay never loads `pg`.
 */
export function parseDatabaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('The database URL is not a URL: use postgres://user:password@host:5432/db.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`The database URL must start with postgres:// (not ${url.protocol}//).`);
  }
  if (url.hostname === '') throw new Error('The database URL names no host.');
  if (url.pathname.length <= 1) {
    throw new Error('The database URL names no database: add it as the path, e.g. /hookport.');
  }
  return url;
}
