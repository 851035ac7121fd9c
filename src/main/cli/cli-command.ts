import { realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const shellQuote = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;

const realpath = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/**
 * How to run `hookport` on this machine, as the UI prints it in sample commands: `hookport` when
 * that name on the PATH is this very launcher (after `npm link`, say), otherwise the launcher's
 * own path, which works from any directory without setup.
 */
export function cliCommand(launcher: string | undefined, path: string | undefined): string {
  const self = launcher === undefined ? null : realpath(launcher);
  if (self === null) return 'hookport';
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    if (realpath(join(dir, 'hookport')) === self) return 'hookport';
  }
  // Windows runs no script by its #! line: there it is `node` and the path.
  return process.platform === 'win32' ? `node "${self}"` : shellQuote(self);
}
