import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, createFixtureSecrets, sync } from '../../support/definitions.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** A definition write never follows a link planted at its temp path (issue 24, item 6). */
describe('definition file writes and symbolic links', () => {
  let relay: TestRelay;
  let dir: string;
  let victim: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
    victim = join(mkdtempSync(join(tmpdir(), 'hookport-victim-')), 'authorized_keys');
    writeFileSync(victim, 'ssh-ed25519 AAAA operator\n');
  });
  afterEach(() => relay.stop());

  it('refuses to create a webhook file through a symlinked temp file, and the link target is untouched', async () => {
    symlinkSync(victim, join(dir, 'webhooks/deploys.yaml.hookport-tmp'));
    const refused = await relay.callError('webhooks.create', {
      name: 'deploys',
      secretName: 'nightly-token',
    });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('is a symbolic link');
    expect(readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA operator\n');
    const names = (await relay.call('webhooks.list', {})).items.map((w) => w.name);
    expect(names).not.toContain('deploys');
  });

  it('refuses an edit through a dangling symlink at the temp path, and creates nothing there', async () => {
    const uid = (await relay.call('webhooks.list', {})).items.find(
      (w) => w.name === 'github-prod',
    )!.uid;
    const dangling = join(victim, '..', 'not-yet-there');
    symlinkSync(dangling, join(dir, 'webhooks/github-prod.yaml.hookport-tmp'));
    const refused = await relay.callError('webhooks.update', { uid, enabled: false });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('github-prod.yaml.hookport-tmp is a symbolic link');
    expect(() => readFileSync(dangling)).toThrow();
  });

  it('replaces a plain temp file an interrupted write left behind', async () => {
    writeFileSync(join(dir, 'webhooks/deploys.yaml.hookport-tmp'), 'half a fi');
    const created = await relay.call('webhooks.create', {
      name: 'deploys',
      secretName: 'nightly-token',
    });
    expect(created.webhook.name).toBe('deploys');
    expect(readFileSync(join(dir, 'webhooks/deploys.yaml'), 'utf8')).toBe(
      'authMode: token\nsecretName: nightly-token\n',
    );
  });
});
