/** Line logger. Callers never pass secrets or tokens; ingress paths are logged by UID only. */
export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export const consoleLogger: Logger = {
  info: (line) => console.log(line),
  warn: (line) => console.warn(line),
  error: (line) => console.error(line),
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Errors from libraries can quote inputs; only the class and message reach the log. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
