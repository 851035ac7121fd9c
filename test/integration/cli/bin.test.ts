import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const { version } = JSON.parse(readFileSync(`${REPO}package.json`, 'utf8')) as { version: string };

/** The installed command: bin/hookport.js over the bundle `npm run build` makes (npm test builds first). */
function hookport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/hookport.js', ...args],
      { cwd: REPO },
      (error, stdout, stderr) =>
        resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr }),
    );
  });
}

describe('the built hookport command', () => {
  it('prints its version', async () => {
    for (const flag of ['--version', '-v', 'version']) {
      await expect(hookport(flag)).resolves.toEqual({
        code: 0,
        stdout: `hookport ${version}\n`,
        stderr: '',
      });
    }
  });

  it('prints the usage for --help, and exits 2 with it for an unknown command', async () => {
    const help = await hookport('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage:\n {2}hookport serve /);
    expect(help.stdout).toContain('[--database postgres://USER:PASSWORD@HOST:5432/DB]');

    const wrong = await hookport('srve');
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/^hookport: Unknown command "srve"\.\n\nUsage:\n/);
  });

  it('refuses a --public-url that could not prefix ingress URLs, before starting', async () => {
    const run = await hookport('serve', '--public-url', 'https://hooks.example.test/?via=tunnel');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^hookport: --public-url must not have a query \(\?…\) or fragment \(#…\): ingress paths are added after it, not "https:\/\/hooks\.example\.test\/\?via=tunnel"\n/,
    );
  });
});
