import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import {
  MAX_FILTER_DEPTH,
  MAX_FILTER_KEYS,
  MAX_FILTER_LIST_VALUES,
  MAX_FILTER_STRING_LENGTH,
  payloadFilterSchema,
  validateFilter,
} from '../../../src/shared/filter/index.js';
import { json } from './helpers.js';

/** `{a: {a: ... {a: leaf}}}` with `levels` keys on the way down. */
function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function keys(count: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
}

const values = (count: number): string[] => Array.from({ length: count }, (_, i) => `v${i}`);

interface Rejection {
  name: string;
  input: unknown;
  path: string;
  message: string;
}

const rejections: Rejection[] = [
  {
    name: 'an array at the top level',
    input: [{ a: 1 }],
    path: 'payload',
    message: 'expected an object, got an array',
  },
  {
    name: 'a string at the top level',
    input: 'action=opened',
    path: 'payload',
    message: 'expected an object, got a string',
  },
  {
    name: 'null at the top level',
    input: null,
    path: 'payload',
    message: 'expected an object, got null',
  },
  {
    name: 'nothing at the top level',
    input: undefined,
    path: 'payload',
    message: 'expected an object, got nothing',
  },
  {
    name: 'in that is not an array',
    input: { action: { in: 'opened' } },
    path: 'payload.action.in',
    message: 'expected an array of values',
  },
  {
    name: 'not_in that is not an array',
    input: { user: { type: { not_in: { bot: true } } } },
    path: 'payload.user.type.not_in',
    message: 'expected an array of values',
  },
  {
    name: 'exists that is not a boolean',
    input: { ref: { exists: 'yes' } },
    path: 'payload.ref.exists',
    message: 'expected true or false',
  },
  {
    name: 'exists: 1',
    input: { ref: { exists: 1 } },
    path: 'payload.ref.exists',
    message: 'expected true or false',
  },
  {
    name: 'an object in a bare list',
    input: { labels: ['bug', { name: 'bug' }] },
    path: 'payload.labels[1]',
    message: 'a list may hold only strings, numbers, booleans and null',
  },
  {
    name: 'an array in an in list',
    input: { labels: { in: [['bug']] } },
    path: 'payload.labels.in[0]',
    message: 'a list may hold only strings, numbers, booleans and null',
  },
  {
    name: 'an empty bare list',
    input: { action: [] },
    path: 'payload.action',
    message: 'an empty list can never match; list at least one value',
  },
  {
    name: 'an empty in list',
    input: { action: { in: [] } },
    path: 'payload.action.in',
    message: 'an empty list can never match; list at least one value',
  },
  {
    name: 'an empty not_in list',
    input: { action: { not_in: [] } },
    path: 'payload.action.not_in',
    message: 'an empty list excludes nothing; list at least one value or remove "not_in"',
  },
  {
    name: 'an empty key',
    input: { '': 1 },
    path: 'payload[""]',
    message: 'a key must not be empty',
  },
  {
    name: 'an empty nested key',
    input: { sender: { '': 'x' } },
    path: 'payload.sender[""]',
    message: 'a key must not be empty',
  },
  {
    name: 'an empty nested object',
    input: { pull_request: {} },
    path: 'payload.pull_request',
    message: 'an empty object tests nothing; use {"exists": true} to require the field',
  },
  {
    name: 'exists: false with in',
    input: { s: { exists: false, in: ['a'] } },
    path: 'payload.s.in',
    message: 'cannot be combined with "exists": false; it could never match',
  },
  {
    name: 'a non-finite number',
    input: { n: Number.POSITIVE_INFINITY },
    path: 'payload.n',
    message: 'expected a finite number',
  },
  {
    name: 'NaN in a list',
    input: { n: [1, Number.NaN] },
    path: 'payload.n[1]',
    message: 'expected a finite number',
  },
  {
    name: 'undefined as a value',
    input: { a: undefined },
    path: 'payload.a',
    message: 'expected a string, number, boolean, null, list or object',
  },
  {
    name: 'a Date as a value',
    input: { at: new Date(0) },
    path: 'payload.at',
    message: 'expected a string, number, boolean, null, list or object',
  },
  {
    name: 'a bad key inside a mixed object',
    input: { range: { in: 'x', unit: { exists: 2 } } },
    path: 'payload.range.unit.exists',
    message: 'expected true or false',
  },
  {
    name: 'a dotted key, quoted in the path',
    input: { 'a.b': { in: 3 } },
    path: 'payload["a.b"].in',
    message: 'expected an array of values',
  },
];

describe('validateFilter refuses', () => {
  it.each(rejections)('$name', ({ input, path, message }) => {
    expect(validateFilter(input)).toEqual({ ok: false, path, message });
  });

  it('names the path under the base the caller gives', () => {
    expect(validateFilter({ action: { in: 'x' } }, 'trigger.filter.payload')).toEqual({
      ok: false,
      path: 'trigger.filter.payload.action.in',
      message: 'expected an array of values',
    });
  });

  it('reports the first problem in key order', () => {
    const result = validateFilter({ a: 1, b: { exists: 'no' }, c: [] });
    expect(result).toMatchObject({ ok: false, path: 'payload.b.exists' });
  });
});

describe('validateFilter accepts', () => {
  it.each([
    ['the empty filter', {}],
    ['scalars of every kind', { s: 'x', n: 1.5, t: true, f: false, z: null }],
    ['lists of mixed scalars', { v: ['a', 1, true, null] }],
    ['every operator together', { v: { in: ['a'], not_in: ['b'], exists: true } }],
    ['exists: false with not_in', { v: { exists: false, not_in: ['b'] } }],
    ['fields named like operators beside others', { v: { in: ['a'], exists: true, other: 1 } }],
    ['a top-level field named exists', { exists: true }],
    ['keys that shadow Object.prototype', json('{"__proto__": 1, "constructor": {"name": "x"}}')],
  ])('%s', (_name, input) => {
    const result = validateFilter(input);
    expect(result).toEqual({ ok: true, filter: input });
  });

  it('returns the filter itself, keeping an own __proto__ key', () => {
    const input = json('{"__proto__": {"admin": true}}');
    const result = validateFilter(input);
    if (!result.ok) throw new Error(result.message);
    expect(result.filter).toBe(input);
    expect(Object.keys(result.filter)).toEqual(['__proto__']);
  });
});

describe('validateFilter limits', () => {
  it('accepts keys 16 levels deep and refuses 17', () => {
    expect(MAX_FILTER_DEPTH).toBe(16);
    expect(validateFilter(nested(16, 'x')).ok).toBe(true);
    expect(validateFilter(nested(16, { in: ['x'] })).ok).toBe(true);
    expect(validateFilter(nested(17, 'x'))).toEqual({
      ok: false,
      path: `payload${'.a'.repeat(16)}`,
      message: 'a filter may nest at most 16 levels',
    });
  });

  it('refuses a 10,000-deep filter without overflowing the stack', () => {
    expect(validateFilter(nested(10_000, 'x'))).toMatchObject({
      ok: false,
      path: `payload${'.a'.repeat(16)}`,
    });
  });

  it('accepts 200 keys and refuses 201', () => {
    expect(MAX_FILTER_KEYS).toBe(200);
    expect(validateFilter(keys(200)).ok).toBe(true);
    expect(validateFilter(keys(201))).toEqual({
      ok: false,
      path: 'payload.k200',
      message: 'a filter may have at most 200 keys',
    });
  });

  it('counts nested and operator keys towards the 200', () => {
    // 198 + "nested" + "in" = 200; one more field is one too many.
    const atLimit = { ...keys(198), nested: { in: ['x'] } };
    expect(validateFilter(atLimit).ok).toBe(true);
    expect(validateFilter({ ...atLimit, extra: 1 })).toEqual({
      ok: false,
      path: 'payload.extra',
      message: 'a filter may have at most 200 keys',
    });
  });

  it('accepts 100 values in a list and refuses 101', () => {
    expect(MAX_FILTER_LIST_VALUES).toBe(100);
    expect(validateFilter({ v: values(100) }).ok).toBe(true);
    expect(validateFilter({ v: { not_in: values(100) } }).ok).toBe(true);
    const tooMany = { ok: false, message: 'a list may hold at most 100 values' };
    expect(validateFilter({ v: values(101) })).toEqual({ ...tooMany, path: 'payload.v' });
    expect(validateFilter({ v: { in: values(101) } })).toEqual({
      ...tooMany,
      path: 'payload.v.in',
    });
  });

  it('accepts strings of 1,000 characters and refuses 1,001', () => {
    expect(MAX_FILTER_STRING_LENGTH).toBe(1000);
    const atLimit = 'x'.repeat(1000);
    const over = 'x'.repeat(1001);
    const tooLong = { ok: false, message: 'a string may be at most 1000 characters' };
    expect(validateFilter({ v: atLimit, w: [atLimit], u: { in: [atLimit] } }).ok).toBe(true);
    expect(validateFilter({ v: over })).toEqual({ ...tooLong, path: 'payload.v' });
    expect(validateFilter({ v: ['a', over] })).toEqual({ ...tooLong, path: 'payload.v[1]' });
    expect(validateFilter({ v: { not_in: [over] } })).toEqual({
      ...tooLong,
      path: 'payload.v.not_in[0]',
    });
  });

  it('accepts keys of 1,000 characters and refuses 1,001', () => {
    expect(validateFilter({ ['k'.repeat(1000)]: 1 }).ok).toBe(true);
    expect(validateFilter({ ['k'.repeat(1001)]: 1 })).toMatchObject({
      ok: false,
      message: 'a key may be at most 1000 characters',
    });
  });
});

describe('payloadFilterSchema', () => {
  const trigger = z.object({
    filter: z.object({ webhook_ids: z.array(z.string()), payload: payloadFilterSchema.optional() }),
  });

  it('points the issue at the bad key inside the embedding schema', () => {
    const result = trigger.safeParse({
      filter: { webhook_ids: [], payload: { pull_request: { state: { in: 'open' } } } },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['filter', 'payload', 'pull_request', 'state', 'in'],
        message: 'expected an array of values',
      }),
    ]);
  });

  it('uses numeric path segments for list items', () => {
    const result = payloadFilterSchema.safeParse({ labels: ['bug', ['x']] });
    expect(result.error?.issues[0]?.path).toEqual(['labels', 1]);
  });

  it('passes a valid filter through unchanged', () => {
    const payload = { action: ['opened'], sender: { type: { not_in: ['Bot'] } } };
    expect(trigger.parse({ filter: { webhook_ids: ['wh_1'], payload } })).toEqual({
      filter: { webhook_ids: ['wh_1'], payload },
    });
  });

  it('refuses a non-object filter', () => {
    const result = payloadFilterSchema.safeParse(['a']);
    expect(result.error?.issues[0]).toMatchObject({
      path: [],
      message: 'expected an object, got an array',
    });
  });
});
