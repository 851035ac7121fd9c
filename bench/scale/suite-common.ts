/** What both scale suites (SQLite, and PostgreSQL with two relays) start and read the same way. */

/** The relay each suite runs in a child process, and the SQLite writer thread it loads. */
export const RELAY = 'bench/scale/scale-relay.ts';
export const WRITER_THREAD = 'src/main/store/sqlite/writer-thread.ts';
/** The seed's factory: 20 webhooks, the most a factory holds. */
export const WEBHOOKS = 20;

/** `--name <number>` from the command line, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;
