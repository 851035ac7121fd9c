import { describe, expect, it } from 'vitest';
import { evaluateFilter, explainFilter } from '../../../src/shared/filter/index.js';

describe('explainFilter: every failing path', () => {
  const body = {
    action: 'closed',
    pull_request: { state: 'closed', draft: true, labels: [{ name: 'ui' }] },
    tags: ['a', 'b'],
  };

  it('lists each failing key in the filter’s order, going into nested objects', () => {
    const filter = {
      action: ['opened', 'reopened'],
      pull_request: {
        state: 'open',
        draft: false,
        labels: { name: 'bug' },
        merged: { exists: true },
      },
      tags: { not_in: ['b'] },
      sender: { login: 'x' },
    };
    expect(explainFilter(filter, body)).toEqual([
      { path: 'action', expected: 'one of ["opened","reopened"]', actual: '"closed"' },
      { path: 'pull_request.state', expected: '"open"', actual: '"closed"' },
      { path: 'pull_request.draft', expected: 'false', actual: 'true' },
      {
        path: 'pull_request.labels',
        expected: 'an element matching {"name":"bug"}',
        actual: '[{"name":"ui"}]',
      },
      { path: 'pull_request.merged', expected: 'present', actual: 'missing' },
      { path: 'tags', expected: 'not one of ["b"]', actual: '["a","b"]' },
      { path: 'sender', expected: 'an object', actual: 'missing' },
    ]);
  });

  it('starts with the failure evaluateFilter reports, and is empty when the filter matches', () => {
    const filter = { pull_request: { draft: false }, action: 'opened' };
    const verdict = evaluateFilter(filter, body);
    expect(verdict.matched).toBe(false);
    if (!verdict.matched) expect(explainFilter(filter, body)[0]).toEqual(verdict.failure);
    expect(explainFilter({ action: 'closed' }, body)).toEqual([]);
    expect(explainFilter({}, body)).toEqual([]);
    expect(explainFilter({ a: 1 }, [1])).toEqual([
      { path: '', expected: 'an object', actual: '[1]' },
    ]);
  });
});
