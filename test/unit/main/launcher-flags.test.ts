import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string =>
  readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/**
 * The relay's memory bounds are a malloc setting and V8 flags, which only a launcher can give:
 * `hookport` (its #! line) and `npm start` (README's quick start) must run the relay with the
 * same ones.
 */
describe('the launcher settings the relay runs with', () => {
  it('are the same for `hookport` and for `npm start`', () => {
    const shebang = read('bin/hookport.js').split('\n')[0]!;
    const command = /^#!\/usr\/bin\/env -S ((?:[A-Z_]+=\S+ )*node(?: --\S+)+)$/.exec(shebang)?.[1];
    expect(command).toMatch(/^MALLOC_ARENA_MAX=\d+ node /);
    expect(command).toMatch(/ --max-semi-space-size=\d+/);
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toContain(`${command} bin/hookport.js serve`);
  });
});
