import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnServe } from '../../support/child-relay.js';
import { REPO_ROOT, hookportArgv } from '../../support/hookport-bin.js';
import { copyFixture, createFixtureSecrets } from '../../support/definitions.js';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';

/** The CLI as a user runs it; asynchronously, since the relay it talks to lives in this process. */
async function hookport(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const run = promisify(execFile);
    const { stdout, stderr } = await run(process.execPath, hookportArgv(...args), {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('hookport apply', () => {
  let relay: TestRelay;
  let env: Record<string, string>;
  beforeEach(async () => {
    relay = await startTestRelay();
    await createFixtureSecrets(relay);
    env = { HOOKPORT_ADMIN_TOKEN: relay.adminToken };
  });
  afterEach(() => relay.stop());

  it('prints the plan, applies it, and exits 0', async () => {
    const dir = copyFixture('basic');
    const dry = await hookport(['apply', dir, '--dry-run', '--admin-url', relay.adminUrl], env);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(
      `Plan for ${dir} to factory "default": 3 create, 0 update, 0 delete, 0 unchanged.`,
    );
    expect(dry.stdout).toContain('Nothing was changed (--dry-run).');
    const applied = await hookport(['apply', dir, '--admin-url', relay.adminUrl], env);
    expect(applied.status).toBe(0);
    const github = applied.stdout.split('\n').find((line) => line.includes('github-prod'))!;
    expect(github.split(/\s+/)).toEqual([
      'create',
      'webhook',
      'github-prod',
      'webhooks/github-prod.yaml',
      expect.stringMatching(/^wh_[a-z0-9]{24}$/) as unknown,
    ]);
  });

  it('exits 1 with the file, line and key to fix when a definition is refused', async () => {
    const dir = copyFixture('basic');
    writeFileSync(
      join(dir, 'webhooks/nightly.yaml'),
      'authMode: token\nsecretName: nightly-token\ncolour: red\n',
    );
    const refused = await hookport(['apply', dir, '--admin-url', relay.adminUrl], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim()).toBe('hookport: webhooks/nightly.yaml:3: colour: unknown key');
  });

  it('exits 2 on a wrong command line', async () => {
    const missing = await hookport(['apply', '--admin-url', relay.adminUrl], env);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('apply: name the definition directory.');
  });
});

describe('hookport serve --definitions', () => {
  it('starts with the factory managed by the directory', async () => {
    const dataDir = tempDir();
    const seed = await startTestRelay({ dataDir });
    await createFixtureSecrets(seed);
    await seed.stop();
    const dir = copyFixture('basic');
    const served = await spawnServe(dataDir, {}, { args: ['--definitions', dir] });
    const listed = await fetch(`${served.adminUrl}/api/webhooks`, {
      headers: { authorization: `Bearer ${served.adminToken}` },
    });
    const names = ((await listed.json()) as { items: Array<{ name: string }> }).items
      .map((w) => w.name)
      .sort();
    expect(names).toEqual(['github-prod', 'nightly', 'partner']);
    served.child.kill('SIGTERM');
    await served.exited;
  });

  it('refuses to start on a broken definition, saying what to fix', async () => {
    const dir = copyFixture('basic');
    writeFileSync(join(dir, 'webhooks/nightly.yaml'), 'secretName: missing-secret\n');
    await expect(spawnServe(tempDir(), {}, { args: ['--definitions', dir] })).rejects.toThrow(
      /webhooks\/github-prod\.yaml:4: secretName: no team secret named "github-signing"/,
    );
  });
});
