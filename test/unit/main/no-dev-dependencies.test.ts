import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = join(REPO, 'src/main');

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

/**
 * The built relay ships without devDependencies: code under src/main never names one as a module
 * (import, require, resolve), so nothing it runs can need one. Running from sources, the dev
 * boot (scripts/ts-worker.mjs) brings the loader.
 */
describe('the relay’s own code', () => {
  it('names no devDependency as a module', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    const devOnly = Object.keys(manifest.devDependencies).filter(
      (name) => !(name in manifest.dependencies) && !name.startsWith('@types/'),
    );
    const named = sources(MAIN).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return devOnly
        .filter((name) => text.includes(`'${name}'`) || text.includes(`'${name}/`))
        .map((name) => `${file.slice(REPO.length)}: ${name}`);
    });
    expect(named).toEqual([]);
  });
});
