/** Line logger. Callers never pass secrets or tokens; ingress paths are logged by UID only. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** How long a line may wait for others to share its write. */
const FLUSH_MS = 10;

/**
 * Lines for one stream, written together at most every FLUSH_MS: under load the relay logs a line
 * per delivery, and one (synchronous, for a pipe or file) write per line was a tenth of the main
 * thread's time; one write per turn of the event loop still cost 4% at 5,000 deliveries a second.
 * Whatever is pending is written before the process exits.
 */
function batchedLines(stream: NodeJS.WriteStream): (line: string) => void {
  let pending = '';
  const flush = (): void => {
    const text = pending;
    pending = '';
    if (text) stream.write(text);
  };
  process.on('exit', flush);
  return (line) => {
    // Unreferenced: a pending line never keeps the process up; 'exit' writes it.
    if (!pending) setTimeout(flush, FLUSH_MS).unref();
    pending += `${line}\n`;
  };
}

/** The relay's log: info to stdout, warnings and errors to stderr. */
export const consoleLogger: Logger = (() => {
  const out = batchedLines(process.stdout);
  const err = batchedLines(process.stderr);
  return { info: out, warn: err, error: err };
})();

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Errors from libraries can quote inputs; only the class and message reach the log. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
