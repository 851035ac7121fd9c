import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveUiFile } from '../../../src/main/ui-files.js';

describe('resolveUiFile', () => {
  const root = mkdtempSync(join(tmpdir(), 'hookport-ui-'));
  const ui = join(root, 'renderer');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<div id="root"></div>');
  writeFileSync(join(ui, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'outside the UI');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('serves a hashed asset as immutable, with its content type', () => {
    expect(resolveUiFile(ui, '/assets/index-abc.js')).toEqual({
      path: join(ui, 'assets', 'index-abc.js'),
      contentType: 'text/javascript; charset=utf-8',
      immutable: true,
    });
  });

  it('answers the root and every client-side route with index.html', () => {
    for (const route of ['/', '', '/webhooks', '/automations/aut_1']) {
      expect(resolveUiFile(ui, route)?.path, route).toBe(join(ui, 'index.html'));
    }
  });

  it('never serves a file outside the UI folder, however the path is spelled', () => {
    for (const attack of [
      '/../secret.txt',
      '/..%2Fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/../../secret.txt',
    ]) {
      expect(resolveUiFile(ui, attack)?.path ?? null, attack).not.toBe(join(root, 'secret.txt'));
    }
  });

  it('is a 404 for a missing file with an extension and for a malformed escape', () => {
    expect(resolveUiFile(ui, '/assets/missing.js')).toBeNull();
    expect(resolveUiFile(ui, '/%E0%A4%A')).toBeNull();
  });
});
