import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  evaluateHeaderFilter,
  headerFilterSchema,
  headerValuesFromPairs,
  validateHeaderFilter,
  type PayloadFilter,
} from '../../../src/shared/filter/index.js';

const GITHUB_ISSUES = headerValuesFromPairs([
  ['Host', 'relay.example'],
  ['X-GitHub-Event', 'issues'],
  ['X-GitHub-Delivery', '72d3162e-cc78-11e3-81ab-4c9367dc0958'],
  ['X-Hub-Signature-256', '[redacted]'],
  ['Accept', 'application/json'],
  ['accept', 'text/plain'],
]);

function valid(input: unknown): PayloadFilter {
  const checked = validateHeaderFilter(input);
  if (!checked.ok) throw new Error(`${checked.path}: ${checked.message}`);
  return checked.filter;
}

describe('header filters: validation (refused when saved, naming the path)', () => {
  it.each([
    [
      'a credential header',
      { 'X-Hub-Signature-256': { exists: true } },
      'headers.X-Hub-Signature-256',
      /X-Hub-Signature-256 carries a credential: its value is stored as \[redacted\], so it cannot be filtered on/,
    ],
    [
      'Authorization in any case',
      { AUTHORIZATION: 'Bearer x' },
      'headers.AUTHORIZATION',
      /carries a credential/,
    ],
    [
      'two spellings of one header',
      { 'X-GitHub-Event': 'issues', 'x-github-event': 'push' },
      'headers.x-github-event',
      /same header as "X-GitHub-Event" \(header names are case-insensitive\)/,
    ],
    ['a number value', { 'x-count': 1 }, 'headers.x-count', /a header value is text/],
    [
      'a boolean in a list',
      { 'x-flag': { in: ['yes', true] } },
      'headers.x-flag.in[1]',
      /a header value is text/,
    ],
    [
      'a nested filter',
      { 'x-github-event': { action: 'opened' } },
      'headers.x-github-event',
      /nested filter never matches/,
    ],
    [
      'a name that is no header name',
      { 'x event': 'a' },
      'headers["x event"]',
      /must be an HTTP header name/,
    ],
    [
      'the grammar’s own rule (an empty list)',
      { 'x-github-event': [] },
      'headers.x-github-event',
      /an empty list can never match/,
    ],
  ])('refuses %s', (_name, input, path, message) => {
    const checked = validateHeaderFilter(input);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.path).toBe(path);
    expect(checked.message).toMatch(message);
  });

  it('refuses a webhook’s own signature header when told about it', () => {
    const checked = validateHeaderFilter(
      { 'X-Signature': 'abc' },
      'headers',
      new Set(['x-signature']),
    );
    expect(checked).toMatchObject({ ok: false, path: 'headers.X-Signature' });
  });

  it('gives the contract schema a path down to the bad key', () => {
    const schema = z.object({ headers: headerFilterSchema });
    const result = schema.safeParse({ headers: { 'x-flag': { in: ['a', 2] } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['headers', 'x-flag', 'in', 1]);
  });
});

describe('header filters: evaluation', () => {
  it('matches header names case-insensitively, whichever way either side is written', () => {
    expect(evaluateHeaderFilter(valid({ 'X-GITHUB-EVENT': ['issues'] }), GITHUB_ISSUES)).toEqual({
      matched: true,
    });
    expect(
      evaluateHeaderFilter(valid({ 'x-github-event': 'pull_request' }), GITHUB_ISSUES),
    ).toEqual({
      matched: false,
      failure: { path: 'x-github-event', expected: '"pull_request"', actual: '"issues"' },
    });
  });

  it('reads a repeated header as the list of its values (any value for in, none for not_in)', () => {
    expect(GITHUB_ISSUES.accept).toEqual(['application/json', 'text/plain']);
    expect(evaluateHeaderFilter(valid({ Accept: 'text/plain' }), GITHUB_ISSUES).matched).toBe(true);
    expect(
      evaluateHeaderFilter(valid({ Accept: { not_in: ['text/plain'] } }), GITHUB_ISSUES),
    ).toEqual({
      matched: false,
      failure: {
        path: 'accept',
        expected: 'not one of ["text/plain"]',
        actual: '["application/json","text/plain"]',
      },
    });
  });

  it('tells a missing header from a present one', () => {
    expect(
      evaluateHeaderFilter(valid({ 'X-Request-Id': { exists: false } }), GITHUB_ISSUES),
    ).toEqual({
      matched: true,
    });
    expect(evaluateHeaderFilter(valid({ 'X-Request-Id': 'abc' }), GITHUB_ISSUES)).toEqual({
      matched: false,
      failure: { path: 'x-request-id', expected: '"abc"', actual: 'missing' },
    });
  });

  it('keeps a header named __proto__ an own key on both sides', () => {
    const headers = headerValuesFromPairs([['__proto__', 'x']]);
    const filter = JSON.parse('{"__proto__": "x"}') as PayloadFilter;
    expect(evaluateHeaderFilter(valid(filter), headers).matched).toBe(true);
    expect(evaluateHeaderFilter(valid(filter), {}).matched).toBe(false);
  });

  it('matches everything without a filter or with {}', () => {
    expect(evaluateHeaderFilter(undefined, {}).matched).toBe(true);
    expect(evaluateHeaderFilter(valid({}), {}).matched).toBe(true);
  });
});
