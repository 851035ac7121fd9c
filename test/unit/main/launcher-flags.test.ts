import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string =>
  readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/**
 * The relay's memory bounds are V8 flags, which only a launcher can give: `hookport` (its #!
 * line) and `npm start` (README's quick start) must run the relay with the same ones.
 */
describe('the V8 flags the relay runs with', () => {
  it('are the same for `hookport` and for `npm start`', () => {
    const shebang = read('bin/hookport.js').split('\n')[0]!;
    const flags = /^#!\/usr\/bin\/env -S node( --\S+)+$/
      .exec(shebang)?.[0]
      .replace('#!/usr/bin/env -S node', '');
    expect(flags).toMatch(/--max-semi-space-size=\d+/);
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toContain(`node${flags} bin/hookport.js serve`);
  });
});
