import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contract, methodNames } from '../../../src/shared/contract/index.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * PRODUCT §10: a `view` token (minted through POST /api/tokens) reads webhooks, deliveries, runs
 * and settings, and gets 403 on every route that needs `manage` — every one the contract lists.
 */
describe('a view token', () => {
  let relay: TestRelay;
  let viewToken: string;
  let uid: string;
  let deliveryId: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    const minted = await relay.api<{ value: string; token: { role: string } }>(
      'POST',
      '/api/tokens',
      {
        name: 'dashboard',
        role: 'view',
      },
    );
    expect(minted.status).toBe(201);
    expect(minted.body.token.role).toBe('view');
    viewToken = minted.body.value;
    const hook = await relay.createWebhook({ name: 'watched' });
    uid = hook.webhook.uid;
    deliveryId = (await postDelivery(hook.ingressUrl, '{"seen":true}', bearer(hook.secret))).body
      .delivery_id!;
  });
  afterEach(() => relay.stop());

  const asViewer = (method: string, path: string, body?: unknown) =>
    relay.api(method, path, body, { token: viewToken });

  it('reads webhooks, deliveries, payloads, factories, status and settings', async () => {
    for (const path of [
      '/api/webhooks',
      `/api/webhooks/${uid}`,
      `/api/webhooks/${uid}/deliveries`,
      '/api/factories',
      '/api/settings',
    ]) {
      expect((await asViewer('GET', path)).status, path).toBe(200);
    }
    expect((await asViewer('GET', `/api/deliveries/${deliveryId}`)).body).toMatchObject({
      payload: '{"seen":true}',
    });
    expect((await asViewer('GET', '/api/status')).body).toMatchObject({ role: 'view' });
  });

  it('gets 403 on every route that needs manage, and nothing changes', async () => {
    const manageOnly = methodNames.filter((name) => contract[name].role === 'manage');
    expect(manageOnly).toEqual(
      expect.arrayContaining([
        'webhooks.create',
        'webhooks.update',
        'webhooks.rotate',
        'webhooks.delete',
        'tokens.create',
        'tokens.list',
        'tokens.delete',
        'settings.update',
      ]),
    );
    for (const name of manageOnly) {
      const { method, path } = contract[name].http;
      const concrete = path
        .replace(':uid', uid)
        .replace(':id', deliveryId)
        .replace(/:[A-Za-z]+/g, 'placeholder');
      const response = await asViewer(
        method,
        concrete,
        method === 'GET' || method === 'DELETE' ? undefined : {},
      );
      expect(response.status, `${name}: ${method} ${concrete}`).toBe(403);
      expect(response.body, name).toMatchObject({ error: { code: 'forbidden' } });
    }

    const after = await relay.api<{ enabled: boolean; name: string }>(
      'GET',
      `/api/webhooks/${uid}`,
    );
    expect(after.body).toMatchObject({ enabled: true, name: 'watched' });
    expect((await relay.api<{ items: unknown[] }>('GET', '/api/tokens')).body.items).toHaveLength(
      1,
    );
  });
});
