import { describe, expect, it } from 'vitest';
import { checkJsonBody } from '../../../src/main/ingress/steps/check-json.js';
import { parseJsonBody } from '../../../src/main/ingress/steps/parse-json.js';
import { seededRandom } from '../../integration/cli/support/random-json.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The verdict a sender sees: accepted, or the 400's reason. */
const verdict = (result: ReturnType<typeof parseJsonBody>): string =>
  result.ok ? 'accepted' : result.reason;

const expectSameVerdict = (body: Buffer): void => {
  expect(
    { body: body.toString('hex'), verdict: verdict(checkJsonBody(body)) },
    'checkJsonBody must answer as parseJsonBody does',
  ).toEqual({ body: body.toString('hex'), verdict: verdict(parseJsonBody(body)) });
};

function randomValue(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return next() < 0.5;
    case 2:
      return Math.round((next() - 0.5) * 1e6) / (next() < 0.5 ? 1 : 1000);
    case 3:
      return ['', 'é', 'a"b', 'line\nbreak', '\u0000', '\ud83d\ude00', 'tab\t'][
        Math.floor(next() * 7)
      ];
    case 4:
      return 'x'.repeat(Math.floor(next() * 20));
    case 5:
      return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 4) }, (_, i) => [
          `k${i}`,
          randomValue(next, depth + 1),
        ]),
      );
  }
}

/** What a mutation may put in: JSON's own characters, JSON5's extras, and bytes UTF-8 forbids. */
// prettier-ignore
const PIECES = [
  '{', '}', '[', ']', '"', ',', ':', '\\', ' ', '0', '1', '-', '+', '.', 'e', 'E', 'x',
  'true', 'null', 'NaN', 'Infinity', "'", '/', '//', '/*', '*/', '\u0000', '\t', '\n', '\r',
  '\u000b', '\f', '\u00a0', '\u2028', '\ufeff', '\\u', '\\ud800', '\\x41', '\\U0041', 'é',
].map((piece) => Buffer.from(piece, 'utf8'));
const RAW_BYTES = [0x80, 0xbf, 0xc0, 0xc1, 0xed, 0xf5, 0xff].map((byte) => Buffer.from([byte]));

function mutate(body: Buffer, next: () => number): Buffer {
  let out = body;
  const edits = 1 + Math.floor(next() * 3);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (out.length + 1));
    const pool = next() < 0.85 ? PIECES : RAW_BYTES;
    const piece = pool[Math.floor(next() * pool.length)]!;
    const cut = next() < 0.5 ? 0 : Math.ceil(next() * 3);
    out = Buffer.concat([out.subarray(0, at), piece, out.subarray(at + cut)]);
  }
  return out;
}

describe('checkJsonBody: the ingress check for a body nothing will evaluate', () => {
  it('accepts without building the tree', () => {
    expect(checkJsonBody(Buffer.from('{"action":"opened","n":[1,2,3]}'))).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it.each([
    ['JSON5: a trailing comma', '[1,]'],
    ['JSON5: an unquoted key', '{a:1}'],
    ['JSON5: single quotes', "'x'"],
    ['JSON5: hexadecimal', '0x10'],
    ['JSON5: a leading plus', '+1'],
    ['JSON5: a leading point', '.5'],
    ['JSON5: a trailing point', '1.'],
    ['JSON5: NaN', 'NaN'],
    ['JSON5: Infinity', 'Infinity'],
    ['JSON5: a comment', '[1]//c'],
    ['JSON5: a \\x escape', '["\\x41"]'],
    ['JSON5: an escaped line break', '"a\\\nb"'],
    ['a \\u escape with a letter past F', '"\\u12G4"'],
    ['JSON5: vertical tab as space', '\u000b[1]'],
    ['JSON5: no-break space as space', '\u00a0[1]'],
    ['a leading zero', '01'],
    ['a raw tab in a string', '"a\tb"'],
    ['a raw control character in a string', '"a\u0001b"'],
    ['a NUL byte after a value (SQLite reads text only up to it)', '{"a":1}\u0000garbage'],
    ['a NUL byte inside an array', '[1\u0000]'],
    ['an empty body', ''],
    ['only whitespace', ' \r\n\t'],
    ['two values', '{} {}'],
    ['a lone minus', '-'],
    ['an exponent without digits', '1e'],
    ['an unknown escape', '"\\U00e9"'],
  ])('refuses what JSON.parse refuses, with its reason: %s', (_name, text) => {
    const body = Buffer.from(text, 'utf8');
    expect(checkJsonBody(body).ok).toBe(false);
    expectSameVerdict(body);
  });

  it.each([
    ['a lone surrogate escape', '"\\ud800"'],
    ['an escaped NUL', '"\\u0000"'],
    ['-0 and exponents', '[-0,1e5,1E+5,2.5e-3]'],
    ['duplicate keys', '{"a":1,"a":2}'],
    ['surrounding whitespace', '\r\n [1] \n'],
    ['a scalar at the top', '"just a string"'],
  ])('accepts what JSON.parse accepts: %s', (_name, text) => {
    const body = Buffer.from(text, 'utf8');
    expect(checkJsonBody(body).ok).toBe(true);
    expectSameVerdict(body);
  });

  it('takes one leading BOM, as the decoder does, and refuses a second', () => {
    expectSameVerdict(Buffer.concat([BOM, Buffer.from('{"with":"bom"}')]));
    expect(checkJsonBody(Buffer.concat([BOM, Buffer.from('[1]')])).ok).toBe(true);
    const twice = Buffer.concat([BOM, BOM, Buffer.from('[1]')]);
    expect(checkJsonBody(twice).ok).toBe(false);
    expectSameVerdict(twice);
  });

  it('refuses invalid UTF-8 inside a string, which SQLite does not check', () => {
    const body = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('"}'),
    ]);
    expect(checkJsonBody(body)).toEqual({ ok: false, reason: 'body is not valid UTF-8' });
  });

  it('accepts nesting deeper than SQLite allows, as JSON.parse does', () => {
    const deep = Buffer.from(`${'['.repeat(1500)}1${']'.repeat(1500)}`);
    expect(checkJsonBody(deep).ok).toBe(true);
  });

  it('gives the same verdict as parseJsonBody on 20,000 mutated JSON bodies', () => {
    const next = seededRandom(20261124);
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const valid = Buffer.from(JSON.stringify(randomValue(next, 0)), 'utf8');
      const body = i % 10 === 0 ? valid : mutate(valid, next);
      const checked = verdict(checkJsonBody(body));
      const parsed = verdict(parseJsonBody(body));
      if (checked !== parsed) expectSameVerdict(body);
      if (parsed !== 'accepted') refused++;
    }
    // The corpus must exercise both answers to test anything.
    expect(refused).toBeGreaterThan(5_000);
    expect(refused).toBeLessThan(19_000);
  });
});
