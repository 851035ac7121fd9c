import { describe, expect, it } from 'vitest';
import {
  checkFilterText,
  filterToText,
} from '../../../src/renderer/pages/automations/filter-text.js';
import { lineAndColumn, scanJson } from '../../../src/renderer/pages/automations/json-scan.js';

/** The Automations page's payload filter box: what it accepts, and where it points when it refuses. */
describe('checking a typed payload filter', () => {
  const underlined = (text: string): string | null => {
    const check = checkFilterText(text);
    if (check.ok || !check.range) return null;
    return text.slice(check.range.start, check.range.end);
  };

  it('reads an empty box as no filter, and pretty JSON as the filter', () => {
    expect(checkFilterText('  \n')).toEqual({ ok: true, filter: undefined });
    const filter = { action: ['opened'], pull_request: { draft: false } };
    expect(checkFilterText(filterToText(filter))).toEqual({ ok: true, filter });
    expect(filterToText(undefined)).toBe('');
  });

  it.each([
    ['{"action": "opened",}', 1, 21, 'expected a key in double quotes'],
    ['{\n  "action": opened\n}', 2, 13, 'unexpected "o": expected a value'],
    ['{"a": "no end', 1, 7, 'a string that is never closed'],
    ['{"a": 1} {"b": 2}', 1, 10, 'unexpected text after the JSON value'],
    ['{"a": "x\\q"}', 1, 9, 'a bad escape in a string'],
    ['{"a": [1 2]}', 1, 10, 'expected "," or "]" after a value'],
  ])('names the line and column of a syntax error in %j', (text, line, column, message) => {
    const check = checkFilterText(text);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain(`JSON syntax error at line ${line}, column ${column}: `);
    expect(check.message).toContain(message);
  });

  it('names the path of a filter the grammar refuses and underlines that key', () => {
    const text = '{\n  "action": { "in": "opened" },\n  "sender": { "login": ["octocat"] }\n}';
    expect(checkFilterText(text)).toMatchObject({
      ok: false,
      message: 'payload.action.in: expected an array of values',
    });
    expect(underlined(text)).toBe('"in"');
  });

  it('underlines the last of duplicate keys, the one JSON.parse keeps', () => {
    const text = '{"a": 1, "a": {"exists": "yes"}}';
    const check = checkFilterText(text);
    expect(check).toMatchObject({ ok: false, message: 'payload.a.exists: expected true or false' });
    if (check.ok || !check.range) throw new Error('expected a range');
    expect(check.range.start).toBe(text.lastIndexOf('"exists"'));
  });

  it('refuses a non-object filter as a whole', () => {
    const check = checkFilterText(' [1, 2] ');
    expect(check.ok).toBe(false);
    expect(underlined(' [1, 2] ')).toBe('[1, 2]');
  });

  it('agrees with JSON.parse on what is valid JSON', () => {
    for (const text of [
      '{"a": -0.5e+3, "b": [true, false, null], "c": "\\u00e9\\n"}',
      '{ }',
      '{"": {"x": []}}',
    ]) {
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      expect(scanJson(text).ok).toBe(true);
    }
    for (const text of ['{"a": 01}', '{"a": .5}', "{'a': 1}", '{"a": 1', '{"a": NaN}']) {
      expect(() => JSON.parse(text) as unknown).toThrow();
      expect(scanJson(text).ok).toBe(false);
    }
  });

  it('answers for a document nested far too deep instead of overflowing the stack', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(scanJson(deep)).toEqual({
      ok: false,
      position: 0,
      message: 'the JSON is nested too deeply',
    });
    expect(checkFilterText(deep).ok).toBe(false);
  });

  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('checking a typed header filter', () => {
  it('applies the header rules, and underlines the header that breaks one', () => {
    const text = '{\n  "X-GitHub-Event": ["issues"],\n  "X-Hub-Signature-256": {"exists": true}\n}';
    const check = checkFilterText(text, 'headers');
    expect(check).toMatchObject({
      ok: false,
      message:
        'headers.X-Hub-Signature-256: X-Hub-Signature-256 carries a credential: its value is stored as [redacted], so it cannot be filtered on',
    });
    if (check.ok || !check.range) throw new Error('expected an underlined key');
    expect(text.slice(check.range.start, check.range.end)).toBe('"X-Hub-Signature-256"');
    expect(checkFilterText('{"x-tag": 1}', 'headers')).toMatchObject({
      ok: false,
      message: expect.stringContaining('headers.x-tag: a header value is text') as unknown,
    });
    expect(checkFilterText('{"X-GitHub-Event": "push"}', 'headers')).toEqual({
      ok: true,
      filter: { 'X-GitHub-Event': 'push' },
    });
  });
});
