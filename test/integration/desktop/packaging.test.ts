import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<
  string,
  unknown
>;
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};

describe('the packaged desktop app', () => {
  it('flips the fuses that would let a local process run the app as plain Node or debug it', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('ships the built bundles in an asar, with native modules unpacked and rebuilt for Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
    expect(config.files).toEqual(
      expect.arrayContaining(['out/**', 'resources/tray-icon.png', 'package.json']),
    );
    expect(packageJson.main).toBe('out/main/index.js');
  });

  it('targets Linux, macOS and Windows', () => {
    expect(config.linux).toMatchObject({ target: ['AppImage', 'deb'] });
    expect(config.mac).toMatchObject({ target: 'dmg' });
    expect(config.win).toMatchObject({ target: 'nsis' });
    expect(packageJson.scripts.dist).toBe('electron-vite build && electron-builder');
  });
});
