import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../support/relay.js';
import { runCli } from '../../support/run-hookport.js';

const dir = tempDir('hookport-test-filter-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function file(content: string | object): string {
  const path = join(dir, `f${files++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const PAYLOAD = file({ action: 'closed', pull_request: { state: 'closed', number: 7 } });
const UID = 'wh_abcdefghijklmnopqrstuvwx';

const testFilter = (filter: string, payload = PAYLOAD, ...extra: string[]) =>
  runCli(['test-filter', '--filter', filter, '--payload', payload, ...extra]);

describe('hookport test-filter (offline)', () => {
  it('exits 0 and says Would trigger when a bare payload filter matches', async () => {
    const run = await testFilter(
      file({ action: ['closed', 'merged'], pull_request: { number: 7.0 } }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'Would trigger',
        '  - Webhook check   not checked offline (test against a stored delivery in the UI or API)',
        '  ✓ Payload check   every key of the payload filter matches',
        '  ✓ Header check    no header filter: every delivery matches',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 and names the failing path, expected and actual value', async () => {
    const run = await testFilter(file({ pull_request: { state: ['open'] } }));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Would not trigger\n');
    expect(run.stdout).toContain(
      '✗ Payload check   pull_request.state: expected one of ["open"], got "closed"',
    );
  });

  it('lists every failing path, one a line, the first one on the check line', async () => {
    const run = await testFilter(
      file({ action: 'opened', pull_request: { state: 'open', number: 8 } }),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      [
        '✗ Payload check   action: expected "opened", got "closed"',
        '                    pull_request.state: expected "open", got "closed"',
        '                    pull_request.number: expected 8, got 7',
      ].join('\n'),
    );
  });

  it('reads a whole Webhook trigger and uses its payload filter', async () => {
    const trigger = {
      provider: 'webhook',
      event: 'received',
      filter: { webhook_ids: [UID], payload: { action: { not_in: ['closed'] } } },
    };
    const run = await testFilter(file(trigger), PAYLOAD, '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      verdict: 'Would not trigger',
      payloadCheck: {
        passed: false,
        failingPath: 'action',
        expected: 'not one of ["closed"]',
        actual: '"closed"',
        detail: 'action: expected not one of ["closed"], got "closed"',
        failures: [{ path: 'action', expected: 'not one of ["closed"]', actual: '"closed"' }],
      },
      headerCheck: {
        passed: true,
        detail: 'no header filter: every delivery matches',
        failures: [],
      },
    });
    const noFilter = await testFilter(
      file({ provider: 'webhook', event: 'received', filter: { webhook_ids: [UID] } }),
    );
    expect(noFilter.code).toBe(0);
    expect(noFilter.stdout).toContain('no payload filter: every delivery matches');
  });

  it('exits 2 for an invalid filter, naming the path', async () => {
    const bare = file({ action: { in: 'closed' } });
    const run = await testFilter(bare);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `hookport test-filter: ${bare}: payload.action.in: expected an array of values\n`,
    );

    const trigger = file({
      provider: 'webhook',
      event: 'received',
      filter: { webhook_ids: [UID], payload: { labels: { exists: 'yes' } } },
    });
    const inTrigger = await testFilter(trigger);
    expect(inTrigger.code).toBe(2);
    expect(inTrigger.stderr).toBe(
      `hookport test-filter: ${trigger}: filter.payload.labels.exists: expected true or false\n`,
    );

    const noWebhooks = file({ provider: 'webhook', event: 'received', filter: { payload: {} } });
    const missing = await testFilter(noWebhooks);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `hookport test-filter: ${noWebhooks}: filter.webhook_ids: is required: a list of webhook UIDs\n`,
    );
  });

  it('exits 2 for a payload or filter that is not JSON', async () => {
    const payload = file('{"action": ');
    const badPayload = await testFilter(file({ action: 'closed' }), payload);
    expect(badPayload.code).toBe(2);
    expect(badPayload.stderr).toMatch(
      new RegExp(`^hookport test-filter: ${payload}: the payload is not valid JSON`),
    );

    const filter = file('not json');
    const badFilter = await testFilter(filter);
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toMatch(/the filter is not valid JSON/);

    const missing = await runCli([
      'test-filter',
      '--filter',
      join(dir, 'nope.json'),
      '--payload',
      PAYLOAD,
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--filter: cannot read ".*nope\.json" \(ENOENT\)/);
  });

  it('a non-object payload matches only the empty filter', async () => {
    const scalar = file('"just text"');
    expect((await testFilter(file({}), scalar)).code).toBe(0);
    const run = await testFilter(file({ action: 'closed' }), scalar);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('expected an object, got "just text"');
  });

  describe('--headers FILE', () => {
    const trigger = (headers: object, payload?: object) =>
      file({
        provider: 'webhook',
        event: 'received',
        filter: { webhook_ids: [UID], headers, ...(payload ? { payload } : {}) },
      });
    const withHeaders = (filter: string, headers: object | string, ...extra: string[]) =>
      testFilter(filter, PAYLOAD, '--headers', file(headers), ...extra);

    it('checks the trigger’s header filter too, names case-insensitive: exit 0 when both pass', async () => {
      const run = await withHeaders(
        trigger({ 'X-GitHub-Event': ['pull_request'] }, { action: 'closed' }),
        { 'x-github-event': 'pull_request' },
      );
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('✓ Header check    every key of the header filter matches');
    });

    it('exits 1 with the header’s path, expected and actual value when the header check fails', async () => {
      const run = await withHeaders(
        trigger({ 'x-github-event': ['pull_request'] }),
        { 'X-GitHub-Event': 'issues' },
        '--json',
      );
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        verdict: 'Would not trigger',
        payloadCheck: { passed: true },
        headerCheck: {
          passed: false,
          failingPath: 'x-github-event',
          expected: 'one of ["pull_request"]',
          actual: '"issues"',
        },
      });
    });

    it('reads a list as the values of a repeated header', async () => {
      const filter = trigger({ 'x-tag': { in: ['deploy'] } });
      expect((await withHeaders(filter, { 'X-Tag': ['build', 'deploy'] })).code).toBe(0);
      expect((await withHeaders(filter, { 'X-Tag': ['build'] })).code).toBe(1);
    });

    it('exits 2 for a redacted header in the filter, a bad headers file, or a header filter without --headers', async () => {
      const redacted = trigger({ authorization: { exists: true } });
      const refused = await withHeaders(redacted, {});
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        'filter.headers.authorization: authorization carries a credential: its value is stored as [redacted], so it cannot be filtered on',
      );

      const bad = await withHeaders(trigger({ 'x-a': 'b' }), { 'x-a': 1 });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('x-a: expected a string, or a non-empty list of strings');
      const twice = await withHeaders(trigger({ 'x-a': 'b' }), { 'X-A': 'b', 'x-a': 'b' });
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('the same header as "X-A"');

      const forgotten = await testFilter(trigger({ 'x-a': 'b' }));
      expect(forgotten.code).toBe(2);
      expect(forgotten.stderr).toContain("give the request's headers with --headers FILE");
    });
  });
});
