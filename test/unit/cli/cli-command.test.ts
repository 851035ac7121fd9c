import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliCommand } from '../../../src/main/cli/cli-command.js';

/** The UI's sample `hookport send` lines must run as printed on the relay's own machine. */
describe('how the UI says to run hookport', () => {
  let dir: string;
  let launcher: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hookport cli '));
    launcher = join(dir, 'install', 'bin', 'hookport.js');
    mkdirSync(join(dir, 'install', 'bin'), { recursive: true });
    writeFileSync(launcher, '');
    mkdirSync(join(dir, 'path-bin'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is `hookport` when that name on the PATH is this launcher (npm link makes such a link)', () => {
    symlinkSync(launcher, join(dir, 'path-bin', 'hookport'));
    expect(cliCommand(launcher, ['/nowhere', join(dir, 'path-bin')].join(delimiter))).toBe(
      'hookport',
    );
  });

  it('is the launcher’s own path, quoted for the shell, when `hookport` is not on the PATH', () => {
    expect(cliCommand(launcher, '/usr/bin')).toBe(`'${launcher}'`);
  });

  it('is the launcher’s path when the `hookport` on the PATH is another installation', () => {
    const other = join(dir, 'other.js');
    writeFileSync(other, '');
    symlinkSync(other, join(dir, 'path-bin', 'hookport'));
    expect(cliCommand(launcher, join(dir, 'path-bin'))).toBe(`'${launcher}'`);
  });

  it('is `hookport` when there is no launcher to point at (the desktop app)', () => {
    expect(cliCommand(undefined, '/usr/bin')).toBe('hookport');
  });
});
