import { describe, it, expect } from 'vitest';
import {
  describeFailure,
  evaluateFilter,
  type FilterFailure,
} from '../../../src/shared/filter/index.js';
import { filter, json } from './helpers.js';

interface Case {
  name: string;
  filter: unknown;
  payload: unknown;
  /** `null` when the delivery matches. */
  failure: FilterFailure | null;
}

const fail = (path: string, expected: string, actual: string): FilterFailure => ({
  path,
  expected,
  actual,
});

const pr = {
  action: 'opened',
  pull_request: { state: 'open', draft: false, user: { login: 'ann' } },
};

const cases: Case[] = [
  // The empty filter, and bodies that are not objects.
  { name: '{} matches an object body', filter: {}, payload: pr, failure: null },
  { name: '{} matches an array body', filter: {}, payload: [1, 2], failure: null },
  { name: '{} matches a string body', filter: {}, payload: 'hello', failure: null },
  { name: '{} matches a number body', filter: {}, payload: 7, failure: null },
  { name: '{} matches a null body', filter: {}, payload: null, failure: null },
  {
    name: 'an array body fails a non-empty filter',
    filter: { a: 1 },
    payload: [{ a: 1 }],
    failure: fail('', 'an object', '[{"a":1}]'),
  },
  {
    name: 'a string body fails a non-empty filter',
    filter: { a: 1 },
    payload: 'a',
    failure: fail('', 'an object', '"a"'),
  },
  {
    name: 'a number body fails a non-empty filter',
    filter: { a: { exists: false } },
    payload: 5,
    failure: fail('', 'an object', '5'),
  },
  {
    name: 'a null body fails a non-empty filter',
    filter: { a: { not_in: [1] } },
    payload: null,
    failure: fail('', 'an object', 'null'),
  },

  // Every key must match.
  {
    name: 'all keys matching matches',
    filter: { action: 'opened', pull_request: { state: 'open' } },
    payload: pr,
    failure: null,
  },
  {
    name: 'the first key failing is reported',
    filter: { action: 'closed', pull_request: { state: 'merged' } },
    payload: pr,
    failure: fail('action', '"closed"', '"opened"'),
  },
  {
    name: 'a later key failing is reported',
    filter: { action: 'opened', pull_request: { state: 'merged' } },
    payload: pr,
    failure: fail('pull_request.state', '"merged"', '"open"'),
  },

  // Key -> scalar.
  { name: 'equal strings match', filter: { action: 'opened' }, payload: pr, failure: null },
  {
    name: 'different strings fail',
    filter: { state: 'open' },
    payload: { state: 'closed' },
    failure: fail('state', '"open"', '"closed"'),
  },
  {
    name: 'string comparison is case-sensitive',
    filter: { state: 'open' },
    payload: { state: 'Open' },
    failure: fail('state', '"open"', '"Open"'),
  },
  { name: '1 equals 1.0', filter: json('{"n": 1}'), payload: json('{"n": 1.0}'), failure: null },
  { name: '1.0 equals 1', filter: json('{"n": 1.0}'), payload: json('{"n": 1}'), failure: null },
  {
    name: 'different numbers fail',
    filter: { n: 2 },
    payload: { n: 1.5 },
    failure: fail('n', '2', '1.5'),
  },
  {
    name: '"1" does not equal 1',
    filter: { n: '1' },
    payload: { n: 1 },
    failure: fail('n', '"1"', '1'),
  },
  {
    name: '1 does not equal "1"',
    filter: { n: 1 },
    payload: { n: '1' },
    failure: fail('n', '1', '"1"'),
  },
  { name: 'true equals true', filter: { draft: true }, payload: { draft: true }, failure: null },
  {
    name: 'true does not equal "true"',
    filter: { draft: true },
    payload: { draft: 'true' },
    failure: fail('draft', 'true', '"true"'),
  },
  {
    name: 'false does not equal 0',
    filter: { draft: false },
    payload: { draft: 0 },
    failure: fail('draft', 'false', '0'),
  },
  {
    name: 'null equals null',
    filter: { merged_at: null },
    payload: { merged_at: null },
    failure: null,
  },
  {
    name: 'null does not equal ""',
    filter: { merged_at: null },
    payload: { merged_at: '' },
    failure: fail('merged_at', 'null', '""'),
  },
  {
    name: 'a scalar does not equal an object',
    filter: { user: 'ann' },
    payload: { user: { login: 'ann' } },
    failure: fail('user', '"ann"', '{"login":"ann"}'),
  },

  // Key -> bare array.
  {
    name: 'a bare list matches one of its values',
    filter: { action: ['opened', 'reopened'] },
    payload: pr,
    failure: null,
  },
  {
    name: 'a bare list fails a value not in it',
    filter: { action: ['opened', 'reopened'] },
    payload: { action: 'closed' },
    failure: fail('action', 'one of ["opened","reopened"]', '"closed"'),
  },
  {
    name: 'a bare list compares types strictly',
    filter: { n: [1, '2'] },
    payload: { n: '1' },
    failure: fail('n', 'one of [1,"2"]', '"1"'),
  },
  {
    name: 'a bare list may hold null',
    filter: { merged_at: [null, 'x'] },
    payload: { merged_at: null },
    failure: null,
  },

  // Key -> operator object.
  {
    name: 'in matches a listed value',
    filter: { state: { in: ['open'] } },
    payload: { state: 'open' },
    failure: null,
  },
  {
    name: 'in fails an unlisted value',
    filter: { state: { in: ['open'] } },
    payload: { state: 'closed' },
    failure: fail('state', 'one of ["open"]', '"closed"'),
  },
  {
    name: 'not_in matches an unlisted value',
    filter: { type: { not_in: ['bot'] } },
    payload: { type: 'user' },
    failure: null,
  },
  {
    name: 'not_in fails a listed value',
    filter: { type: { not_in: ['bot'] } },
    payload: { type: 'bot' },
    failure: fail('type', 'not one of ["bot"]', '"bot"'),
  },
  {
    name: 'exists: true matches a present field',
    filter: { ref: { exists: true } },
    payload: { ref: 'main' },
    failure: null,
  },
  {
    name: 'exists: true fails a missing field',
    filter: { ref: { exists: true } },
    payload: {},
    failure: fail('ref', 'present', 'missing'),
  },
  {
    name: 'exists: false matches a missing field',
    filter: { ref: { exists: false } },
    payload: { other: 1 },
    failure: null,
  },
  {
    name: 'exists: false fails a present field',
    filter: { ref: { exists: false } },
    payload: { ref: 'main' },
    failure: fail('ref', 'absent', '"main"'),
  },
  {
    name: 'in and not_in both holding match',
    filter: { s: { in: ['a', 'b'], not_in: ['c'] } },
    payload: { s: 'a' },
    failure: null,
  },
  {
    name: 'in holding but not_in failing fails',
    filter: { s: { in: ['a', 'b'], not_in: ['b'] } },
    payload: { s: 'b' },
    failure: fail('s', 'not one of ["b"]', '"b"'),
  },
  {
    name: 'exists: true with in on a missing field reports presence',
    filter: { s: { exists: true, in: ['a'] } },
    payload: {},
    failure: fail('s', 'present', 'missing'),
  },
  {
    name: 'exists: true with in on an unlisted value reports the list',
    filter: { s: { exists: true, in: ['a'] } },
    payload: { s: 'z' },
    failure: fail('s', 'one of ["a"]', '"z"'),
  },

  // Missing fields and null.
  {
    name: '= fails a missing field',
    filter: { action: 'opened' },
    payload: {},
    failure: fail('action', '"opened"', 'missing'),
  },
  {
    name: '= null fails a missing field',
    filter: { merged_at: null },
    payload: {},
    failure: fail('merged_at', 'null', 'missing'),
  },
  {
    name: 'a bare list fails a missing field',
    filter: { action: ['opened'] },
    payload: {},
    failure: fail('action', 'one of ["opened"]', 'missing'),
  },
  {
    name: 'in fails a missing field',
    filter: { action: { in: ['opened'] } },
    payload: {},
    failure: fail('action', 'one of ["opened"]', 'missing'),
  },
  {
    name: 'not_in holds on a missing field',
    filter: { action: { not_in: ['closed'] } },
    payload: {},
    failure: null,
  },
  {
    name: 'exists: true holds on null',
    filter: { merged_at: { exists: true } },
    payload: { merged_at: null },
    failure: null,
  },
  {
    name: 'exists: false fails on null',
    filter: { merged_at: { exists: false } },
    payload: { merged_at: null },
    failure: fail('merged_at', 'absent', 'null'),
  },
  {
    name: 'not_in holds on null unless null is listed',
    filter: { merged_at: { not_in: ['x'] } },
    payload: { merged_at: null },
    failure: null,
  },
  {
    name: 'not_in fails on null when null is listed',
    filter: { merged_at: { not_in: [null] } },
    payload: { merged_at: null },
    failure: fail('merged_at', 'not one of [null]', 'null'),
  },

  // Arrays in the body.
  {
    name: '= on an array field matches any element',
    filter: { labels: 'bug' },
    payload: { labels: ['docs', 'bug'] },
    failure: null,
  },
  {
    name: '= on an array field fails when no element equals',
    filter: { labels: 'bug' },
    payload: { labels: ['docs', 'ui'] },
    failure: fail('labels', '"bug"', '["docs","ui"]'),
  },
  {
    name: '= on an empty array field fails',
    filter: { labels: 'bug' },
    payload: { labels: [] },
    failure: fail('labels', '"bug"', '[]'),
  },
  {
    name: 'a bare list on an array field matches when an element is listed',
    filter: { labels: ['bug', 'security'] },
    payload: { labels: ['docs', 'security'] },
    failure: null,
  },
  {
    name: 'a bare list on an array field fails when none is listed',
    filter: { labels: ['bug', 'security'] },
    payload: { labels: ['docs'] },
    failure: fail('labels', 'one of ["bug","security"]', '["docs"]'),
  },
  {
    name: 'in on an array field matches when an element is listed',
    filter: { ids: { in: [3, 4] } },
    payload: { ids: [1, 4.0] },
    failure: null,
  },
  {
    name: 'in on an array field compares types strictly',
    filter: { ids: { in: [3, 4] } },
    payload: { ids: ['3', '4'] },
    failure: fail('ids', 'one of [3,4]', '["3","4"]'),
  },
  {
    name: 'not_in on an array field holds when no element is listed',
    filter: { labels: { not_in: ['wip'] } },
    payload: { labels: ['bug', 'ui'] },
    failure: null,
  },
  {
    name: 'not_in on an array field fails when any element is listed',
    filter: { labels: { not_in: ['wip'] } },
    payload: { labels: ['bug', 'wip'] },
    failure: fail('labels', 'not one of ["wip"]', '["bug","wip"]'),
  },
  {
    name: 'not_in holds on an empty array field',
    filter: { labels: { not_in: ['wip'] } },
    payload: { labels: [] },
    failure: null,
  },
  {
    name: 'exists: true holds on an empty array field',
    filter: { labels: { exists: true } },
    payload: { labels: [] },
    failure: null,
  },
  {
    name: 'a value test does not look inside nested arrays',
    filter: { m: 1 },
    payload: { m: [[1]] },
    failure: fail('m', '1', '[[1]]'),
  },
  {
    name: 'a nested filter on an array matches when any element matches',
    filter: { labels: { name: 'bug' } },
    payload: { labels: [{ name: 'docs' }, { name: 'bug' }] },
    failure: null,
  },
  {
    name: 'a nested filter on an array fails when no element matches',
    filter: { labels: { name: 'bug' } },
    payload: { labels: [{ name: 'docs' }, { name: 'ui' }] },
    failure: fail(
      'labels',
      'an element matching {"name":"bug"}',
      '[{"name":"docs"},{"name":"ui"}]',
    ),
  },
  {
    name: 'a nested filter on an array needs one element matching every key',
    filter: { commits: { author: 'ann', verified: true } },
    payload: {
      commits: [
        { author: 'ann', verified: false },
        { author: 'bob', verified: true },
      ],
    },
    failure: fail(
      'commits',
      'an element matching {"author":"ann","verified":true}',
      '[{"author":"ann","verified":false},{"author":"bob","verified":true}]',
    ),
  },
  {
    name: 'a nested filter on an array of scalars fails',
    filter: { labels: { name: 'bug' } },
    payload: { labels: ['bug'] },
    failure: fail('labels', 'an element matching {"name":"bug"}', '["bug"]'),
  },
  {
    name: 'a nested filter reaches through arrays at several levels',
    filter: { commits: { files: { path: 'README.md' } } },
    payload: { commits: [{ files: [] }, { files: [{ path: 'a.ts' }, { path: 'README.md' }] }] },
    failure: null,
  },

  // Key -> other object: recurse.
  {
    name: 'a nested filter matches a nested field',
    filter: { pull_request: { user: { login: 'ann' } } },
    payload: pr,
    failure: null,
  },
  {
    name: 'a nested filter reports the inner path',
    filter: { pull_request: { user: { login: 'bob' } } },
    payload: pr,
    failure: fail('pull_request.user.login', '"bob"', '"ann"'),
  },
  {
    name: 'a nested filter fails a missing field',
    filter: { pull_request: { state: 'open' } },
    payload: { issue: {} },
    failure: fail('pull_request', 'an object', 'missing'),
  },
  {
    name: 'a nested filter fails a string field',
    filter: { pull_request: { state: 'open' } },
    payload: { pull_request: 'open' },
    failure: fail('pull_request', 'an object', '"open"'),
  },
  {
    name: 'a nested filter fails a null field',
    filter: { pull_request: { state: { not_in: ['closed'] } } },
    payload: { pull_request: null },
    failure: fail('pull_request', 'an object', 'null'),
  },
  {
    name: 'inside a present object, a missing field is missing',
    filter: { pull_request: { merged: { exists: false }, state: { not_in: ['closed'] } } },
    payload: { pull_request: {} },
    failure: null,
  },
  {
    name: 'an object mixing operator and other keys is a nested filter',
    filter: { range: { in: [1, 2], unit: 'd' } },
    payload: { range: { in: 2, unit: 'd' } },
    failure: null,
  },
  {
    name: 'a mixed object does not act as operators',
    filter: { range: { in: [1, 2], unit: 'd' } },
    payload: { range: 2 },
    failure: fail('range', 'an object', '2'),
  },
  {
    name: 'a top-level "exists" key names a field',
    filter: { exists: true },
    payload: { exists: true },
    failure: null,
  },

  // Own properties only, and literal keys.
  {
    name: 'constructor is not read from Object.prototype',
    filter: { constructor: { exists: true } },
    payload: {},
    failure: fail('constructor', 'present', 'missing'),
  },
  {
    name: 'toString is missing unless the body has it',
    filter: { toString: { exists: false } },
    payload: {},
    failure: null,
  },
  {
    name: 'a nested filter on constructor does not reach Object',
    filter: { constructor: { name: 'Object' } },
    payload: {},
    failure: fail('constructor', 'an object', 'missing'),
  },
  {
    name: '__proto__ is missing unless the body has it',
    filter: json('{"__proto__": {"exists": true}}'),
    payload: {},
    failure: fail('__proto__', 'present', 'missing'),
  },
  {
    name: 'an own __proto__ key in the body is read',
    filter: json('{"__proto__": {"admin": true}}'),
    payload: json('{"__proto__": {"admin": true}}'),
    failure: null,
  },
  {
    name: 'an own constructor key in the body is read',
    filter: { constructor: 'x' },
    payload: json('{"constructor": "y"}'),
    failure: fail('constructor', '"x"', '"y"'),
  },
  {
    name: 'a dotted key names a field with a dot in its name',
    filter: { 'a.b': 1 },
    payload: { 'a.b': 1 },
    failure: null,
  },
  {
    name: 'a dotted key does not reach a nested field',
    filter: { 'a.b': 1 },
    payload: { a: { b: 1 } },
    failure: fail('["a.b"]', '1', 'missing'),
  },
];

describe('evaluateFilter', () => {
  it.each(cases)('$name', (c) => {
    const verdict = evaluateFilter(filter(c.filter), c.payload);
    expect(verdict).toEqual(c.failure ? { matched: false, failure: c.failure } : { matched: true });
  });

  it('matches every delivery when there is no filter', () => {
    expect(evaluateFilter(undefined, { action: 'x' })).toEqual({ matched: true });
    expect(evaluateFilter(null, 'not an object')).toEqual({ matched: true });
  });

  it('truncates a long array in the failure to about 200 characters', () => {
    const labels = Array.from({ length: 100 }, (_, i) => `label-${i}`);
    const verdict = evaluateFilter(filter({ labels: 'bug' }), { labels });
    if (verdict.matched) throw new Error('expected a failure');
    expect(verdict.failure.actual.startsWith('["label-0","label-1",')).toBe(true);
    expect(verdict.failure.actual.endsWith('…')).toBe(true);
    expect(verdict.failure.actual.length).toBe(201);
  });

  it('truncates a long string in the failure', () => {
    const verdict = evaluateFilter(filter({ body: 'x' }), { body: 'y'.repeat(100_000) });
    if (verdict.matched) throw new Error('expected a failure');
    expect(verdict.failure.actual).toBe(`"${'y'.repeat(199)}…`);
  });

  it('reads only the fields the filter names', () => {
    const payload = { action: 'opened' };
    Object.defineProperty(payload, 'secret', {
      enumerable: true,
      get: () => {
        throw new Error('read an unrelated field');
      },
    });
    expect(evaluateFilter(filter({ action: 'opened' }), payload)).toEqual({ matched: true });
    expect(evaluateFilter(filter({ action: 'closed' }), payload).matched).toBe(false);
  });
});

describe('describeFailure', () => {
  it('reads like the Test filter panel', () => {
    const verdict = evaluateFilter(filter({ pull_request: { state: ['open'] } }), {
      pull_request: { state: 'closed' },
    });
    if (verdict.matched) throw new Error('expected a failure');
    expect(describeFailure(verdict.failure)).toBe(
      'pull_request.state: expected one of ["open"], got "closed"',
    );
  });

  it('names no path when the body itself is not an object', () => {
    const verdict = evaluateFilter(filter({ a: 1 }), [1, 2]);
    if (verdict.matched) throw new Error('expected a failure');
    expect(describeFailure(verdict.failure)).toBe('expected an object, got [1,2]');
  });

  it('says missing for a missing field', () => {
    expect(describeFailure({ path: 'sender.type', expected: 'present', actual: 'missing' })).toBe(
      'sender.type: expected present, got missing',
    );
  });
});
