// Runs after `npm install` / `npm ci`: says whether the desktop app can run here, and makes sure
// Electron's type declarations are there either way. Electron is an optional dependency: where its
// binary cannot be downloaded (from GitHub), npm drops the whole package, types included, and then
// the type check and the lint of the desktop shell would have nothing to check against.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const electronDir = join(root, 'node_modules', 'electron');
// tsconfig.base.json's `paths` tries node_modules/electron first, then this folder.
const typesDir = join(root, 'node_modules', '.electron-types');

function lockedElectronVersion() {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  return lock.packages?.['node_modules/electron']?.version ?? null;
}

/** Electron's own electron.d.ts from its registry tarball (npm's cache has it: npm ci just fetched it). */
function extractElectronTypes(version) {
  const work = mkdtempSync(join(tmpdir(), 'hookport-electron-types-'));
  try {
    execFileSync(
      'npm',
      ['pack', `electron@${version}`, '--prefer-offline', '--silent', '--pack-destination', work],
      {
        cwd: work,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/electron.d.ts']);
    mkdirSync(typesDir, { recursive: true });
    copyFileSync(join(work, 'package', 'electron.d.ts'), join(typesDir, 'electron.d.ts'));
    writeFileSync(
      join(typesDir, 'package.json'),
      JSON.stringify(
        { name: 'electron-types', version, private: true, types: 'electron.d.ts' },
        null,
        2,
      ) + '\n',
    );
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (!existsSync(join(electronDir, 'package.json'))) {
  const version = lockedElectronVersion();
  const haveTypes =
    existsSync(join(typesDir, 'electron.d.ts')) &&
    JSON.parse(readFileSync(join(typesDir, 'package.json'), 'utf8')).version === version;
  const problem = version && !haveTypes ? extractElectronTypes(version) : null;
  console.log(
    'Hookport: Electron did not install (its binary could not be downloaded). The relay, its UI and ' +
      '`hookport` work without it. For the desktop app, run `npm install` where GitHub is reachable.' +
      (problem
        ? ` Electron's types could not be unpacked either (${problem}): \`npm test\` needs them.`
        : ''),
  );
} else {
  rmSync(typesDir, { recursive: true, force: true });
  if (!existsSync(join(electronDir, 'path.txt'))) {
    console.log(
      "Hookport: Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD). The desktop " +
        'app needs it: `node node_modules/electron/install.js` fetches it.',
    );
  }
}
