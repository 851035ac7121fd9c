import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { entry } from '../signatures/support/relay-calls.js';
import { bodyFile, deliveryIdOf, removeBodyFiles, runSend } from './support/run-send.js';

describe('hookport send without --scheme (token modes)', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(async () => {
    removeBodyFiles();
    await relay.stop();
  });

  it('token: --secret goes out as a Bearer token; --id as X-Service-Delivery-Id', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({ name: 'bearer' });

    const run = await runSend([
      ingressUrl,
      '--body',
      bodyFile('[1,2,3]'),
      '--secret',
      secret!,
      '--id',
      'job-7',
    ]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(secret);
    expect(await entry(relay, deliveryIdOf(run))).toMatchObject({
      label: 'Accepted',
      payload: '[1,2,3]',
      identity: 'job-7',
      identitySource: 'x-service-delivery-id',
    });
  });

  it('token: a wrong secret prints the 401 and exits 1', async () => {
    const { ingressUrl } = await relay.createWebhook({ name: 'bearer-wrong' });

    const run = await runSend([ingressUrl, '--body', bodyFile('{}'), '--secret', 'not-the-secret']);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^401 \{"error":\{"code":"unauthorized",.*\}\}\n$/);
  });

  it('url_token: the URL carries the token; nothing else is needed, and the URL is never printed', async () => {
    const { secret, ingressUrl } = await relay.createWebhook({
      name: 'in-url',
      authMode: 'url_token',
    });

    const run = await runSend([ingressUrl, '--body', bodyFile('{"ok":true}')]);

    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^202 dlv_/);
    expect(run.stdout + run.stderr).not.toContain(secret);
  });

  it('url_token: a wrong token in the URL is a 404, exit 1, and the error does not echo the URL', async () => {
    const { ingressUrl } = await relay.createWebhook({
      name: 'in-url-wrong',
      authMode: 'url_token',
    });
    const wrong = ingressUrl.replace(/[^/]+$/, 'WRONG-token-0123456789');

    const run = await runSend([wrong, '--body', bodyFile('{}')]);

    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^401 /);
    expect(run.stdout + run.stderr).not.toContain('WRONG-token');
  });

  it('a relay that is not running: exit 1 with a message naming the host, not the path', async () => {
    const run = await runSend([
      'http://127.0.0.1:9/webhooks/w/wh_x/secret-token-in-path',
      '--body',
      bodyFile('{}'),
    ]);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/could not send to 127\.0\.0\.1:9: ECONNREFUSED/);
    expect(run.stderr).not.toContain('secret-token-in-path');
  });
});
