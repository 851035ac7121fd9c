import { describe, it, expect } from 'vitest';
import { describeFailure, evaluateFilter } from '../../../src/shared/filter/index.js';
import { filter } from './helpers.js';

function deepObject(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function deepArray(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

// About 200 KB of commits, like a large GitHub push.
const commits = Array.from({ length: 1500 }, (_, i) => ({
  id: i.toString(16).padStart(40, '0'),
  message: `commit ${i} ${'lorem ipsum '.repeat(5)}`,
  author: { name: `dev${i % 7}`, email: `dev${i % 7}@example.com` },
  added: [`src/file${i}.ts`],
}));
const push = { ref: 'refs/heads/main', commits };

describe('large and deep payloads', () => {
  it('finds a match in the last element of a 200 KB array', () => {
    expect(JSON.stringify(push).length).toBeGreaterThan(200_000);
    const verdict = evaluateFilter(
      filter({ ref: 'refs/heads/main', commits: { added: 'src/file1499.ts' } }),
      push,
    );
    expect(verdict).toEqual({ matched: true });
  });

  it('explains a miss on a 200 KB array with a short rendering', () => {
    const verdict = evaluateFilter(filter({ commits: { author: { name: 'eve' } } }), push);
    if (verdict.matched) throw new Error('expected a failure');
    expect(verdict.failure.path).toBe('commits');
    expect(verdict.failure.expected).toBe('an element matching {"author":{"name":"eve"}}');
    expect(verdict.failure.actual.length).toBeLessThanOrEqual(201);
    expect(describeFailure(verdict.failure).length).toBeLessThan(300);
  });

  it('evaluates a 10,000-deep object without throwing', () => {
    const payload = deepObject(10_000);
    expect(evaluateFilter(filter({ a: { a: { a: { exists: true } } } }), payload)).toEqual({
      matched: true,
    });
    const verdict = evaluateFilter(filter({ a: { a: 'x' } }), payload);
    if (verdict.matched) throw new Error('expected a failure');
    expect(verdict.failure.path).toBe('a.a');
    expect(verdict.failure.actual.startsWith('{"a":{"a":{"a":')).toBe(true);
    expect(verdict.failure.actual.endsWith('…')).toBe(true);
  });

  it('evaluates a 10,000-deep array without throwing', () => {
    const verdict = evaluateFilter(filter({ tree: { in: [1] } }), { tree: deepArray(10_000) });
    if (verdict.matched) throw new Error('expected a failure');
    expect(verdict.failure.actual).toBe(`${'['.repeat(200)}…`);
  });

  it('renders a failure on a body nested far beyond the call stack', () => {
    const verdict = evaluateFilter(filter({ a: 1 }), deepArray(100_000));
    expect(verdict).toEqual({
      matched: false,
      failure: { path: '', expected: 'an object', actual: `${'['.repeat(200)}…` },
    });
  });
});
