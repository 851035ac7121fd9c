import { describe, expect, it } from 'vitest';
import { withWebhookTimestamp } from '../../../src/main/ingress/schemes/linear.js';

const MS = 1_750_000_000_123;
const inserted = (text: string): string | null => {
  const result = withWebhookTimestamp(Buffer.from(text, 'utf8'), MS);
  return result.kind === 'inserted' ? result.body.toString('utf8') : result.kind;
};

describe("hookport send --scheme linear: Linear's webhookTimestamp goes into the body", () => {
  it('just before the closing brace, every other byte kept', () => {
    expect(inserted('{"a":1}')).toBe(`{"a":1,"webhookTimestamp":${MS}}`);
    expect(inserted('{\n  "a": [1, {"b": 2}]\n}\n')).toBe(
      `{\n  "a": [1, {"b": 2}],"webhookTimestamp":${MS}\n}\n`,
    );
    expect(inserted('\ufeff{"caf\u00e9":"\u2603"}  ')).toBe(
      `\ufeff{"caf\u00e9":"\u2603","webhookTimestamp":${MS}}  `,
    );
  });

  it('without a comma in an empty object', () => {
    expect(inserted('{}')).toBe(`{"webhookTimestamp":${MS}}`);
    expect(inserted(' { \n } ')).toBe(` {"webhookTimestamp":${MS} \n } `);
  });

  it('only at the top level: a nested webhookTimestamp does not count', () => {
    expect(inserted('{"data":{"webhookTimestamp":1}}')).toBe(
      `{"data":{"webhookTimestamp":1},"webhookTimestamp":${MS}}`,
    );
  });

  it('not when the body already has one, or is not a JSON object', () => {
    expect(inserted('{"webhookTimestamp":1}')).toBe('present');
    for (const text of ['[1,2]', '"text"', 'null', '{not json', '']) {
      expect(inserted(text), text).toBe('not-object');
    }
  });
});
