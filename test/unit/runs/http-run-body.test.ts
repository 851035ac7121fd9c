import { describe, expect, it } from 'vitest';
import { executeHttp, httpRunBody } from '../../../src/main/runs/executors/http.js';
import type { RunJob } from '../../../src/main/runs/executors/types.js';

const job = (payload: string): RunJob => ({
  runId: 'run_01J00000000000000000000000',
  automationId: 'aut_01J00000000000000000000000',
  deliveryId: 'dlv_01J00000000000000000000000',
  webhookUid: 'wh_abcdefghijklmnopqrstuvwx',
  eventType: 'pull_request.opened',
  input: 'Do it.\n\n"quoted" \u2603',
  payload: Buffer.from(payload, 'utf8'),
  signal: new AbortController().signal,
  started: () => {},
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
      const parsed = JSON.parse(body) as { prompt: string; payload: unknown; event_type: string };
      expect(parsed.prompt).toBe('Do it.\n\n"quoted" \u2603');
      expect(parsed.event_type).toBe('pull_request.opened');
      expect(parsed.payload).toEqual(JSON.parse(raw));
    }
  });

  it('drops only a leading byte-order mark, which JSON cannot carry inside an object', () => {
    const body = httpRunBody(job('\uFEFF{"a":1}')).toString('utf8');
    expect(body.endsWith(',"payload":{"a":1}}')).toBe(true);
    expect(JSON.parse(body)).toMatchObject({ payload: { a: 1 } });
  });
});

describe('the http executor error', () => {
  it('never quotes the URL, even where fetch itself does (a URL saved before user info was refused)', async () => {
    const result = await executeHttp(
      {
        kind: 'http',
        url: 'http://runner:hunter2@127.0.0.1:9/runs?key=abc',
        maxAttempts: 1,
        backoffSeconds: 0,
        timeoutSeconds: 5,
        concurrency: 1,
      },
      job('{}'),
    );

    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/^gave up after 1 attempt: .*<the executor URL>/);
    expect(result.error).not.toMatch(/hunter2|key=abc|127\.0\.0\.1/);
  });
});
