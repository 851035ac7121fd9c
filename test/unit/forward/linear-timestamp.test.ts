import { describe, expect, it } from 'vitest';
import { refreshWebhookTimestamp } from '../../../src/main/ingress/schemes/linear.js';

const NOW = 1_767_000_000_123;
const refresh = (text: string) => refreshWebhookTimestamp(Buffer.from(text), NOW);

describe('refreshing Linear’s webhookTimestamp in a stored body', () => {
  it('replaces the top-level number in place and keeps every other byte', () => {
    const body = '{ "action":"create",\n  "webhookTimestamp" :  1700000000000, "data":{"x":[1,2]}}';
    const out = refresh(body);
    expect(out.body.toString()).toBe(
      `{ "action":"create",\n  "webhookTimestamp" :  ${NOW}, "data":{"x":[1,2]}}`,
    );
    expect(out.note).toBe(`linear: webhookTimestamp set to ${NOW}`);
  });

  it('leaves nested fields of the same name alone', () => {
    const body =
      '{"data":{"webhookTimestamp":1},"list":[{"webhookTimestamp":2}],"webhookTimestamp":3}';
    expect(refresh(body).body.toString()).toBe(
      `{"data":{"webhookTimestamp":1},"list":[{"webhookTimestamp":2}],"webhookTimestamp":${NOW}}`,
    );
  });

  it('finds the key through escapes, strings holding braces and a BOM', () => {
    const body = '\ufeff{"note":"} ,\\"webhookTimestamp\\":9","webhook\\u0054imestamp":5e3}';
    const out = JSON.parse(refresh(body).body.toString().slice(1)) as Record<string, unknown>;
    expect(out).toEqual({ note: '} ,"webhookTimestamp":9', webhookTimestamp: NOW });
  });

  it('adds the field to an object without one, and leaves anything else as it was', () => {
    expect(refresh('{"a":1}').body.toString()).toBe(`{"a":1,"webhookTimestamp":${NOW}}`);
    for (const text of ['[1,2]', 'not json', '{"webhookTimestamp":"soon"}']) {
      expect(refresh(text)).toEqual({ body: Buffer.from(text), note: null });
    }
  });
});
