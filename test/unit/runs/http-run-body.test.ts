import { describe, expect, it } from 'vitest';
import { httpRunBody } from '../../../src/main/runs/executors/http.js';
import type { RunJob } from '../../../src/main/runs/executors/types.js';

const job = (payload: string): RunJob => ({
  runId: 'run_01J00000000000000000000000',
  automationId: 'aut_01J00000000000000000000000',
  deliveryId: 'dlv_01J00000000000000000000000',
  webhookUid: 'wh_abcdefghijklmnopqrstuvwx',
  input: 'Do it.\n\n"quoted" \u2603',
  payload: Buffer.from(payload, 'utf8'),
  signal: new AbortController().signal,
});

describe('the http executor request body', () => {
  it('splices the payload bytes in unchanged and stays valid JSON', () => {
    for (const raw of [
      '{ "a" : 1.0 }',
      '[1, 2]',
      '"text"',
      'null',
      '{"deep":[[[[{"x":"\\u00e9"}]]]]}',
    ]) {
      const body = httpRunBody(job(raw)).toString('utf8');
      expect(body.endsWith(`,"payload":${raw}}`), raw).toBe(true);
      const parsed = JSON.parse(body) as { prompt: string; payload: unknown };
      expect(parsed.prompt).toBe('Do it.\n\n"quoted" \u2603');
      expect(parsed.payload).toEqual(JSON.parse(raw));
    }
  });

  it('drops only a leading byte-order mark, which JSON cannot carry inside an object', () => {
    const body = httpRunBody(job('\uFEFF{"a":1}')).toString('utf8');
    expect(body.endsWith(',"payload":{"a":1}}')).toBe(true);
    expect(JSON.parse(body)).toMatchObject({ payload: { a: 1 } });
  });
});
