import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../../src/main/cli/admin-client.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** PRODUCT §11: /api/tokens mints (value shown once), lists (never values) and revokes at once. */
describe('admin API tokens', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  const mint = (name: string, role: 'manage' | 'view') =>
    relay.call('tokens.create', { name, role });

  it('shows a new token value once; the list never shows values', async () => {
    const minted = await mint('ci', 'manage');
    expect(minted.value).toMatch(/^hpt_[A-Za-z0-9_-]{43}$/);
    expect(minted.token).toMatchObject({ name: 'ci', role: 'manage', lastUsedAt: null });

    // Raw: the answer's own keys are checked, not the contract's view of them.
    const list = await relay.api<{ items: Array<Record<string, unknown>> }>('GET', '/api/tokens');
    expect(list.body.items).toHaveLength(1);
    expect(Object.keys(list.body.items[0]!).sort()).toEqual(
      ['createdAt', 'id', 'lastUsedAt', 'name', 'role'].sort(),
    );
    expect(JSON.stringify(list.body)).not.toContain(minted.value);
  });

  it('lets a minted manage token write, and records when it was last used', async () => {
    const minted = await mint('automation', 'manage');
    const created = await new AdminClient(relay.adminUrl, minted.value).call('webhooks.create', {
      name: 'by-token',
    });
    expect(created.webhook.name).toBe('by-token');
    const list = await relay.call('tokens.list', {});
    expect(list.items[0]!.lastUsedAt).not.toBeNull();
  });

  it('refuses a revoked token with 401 at once', async () => {
    const minted = await mint('short-lived', 'view');
    expect(
      (await relay.api('GET', '/api/webhooks', undefined, { token: minted.value })).status,
    ).toBe(200);

    const revoked = await relay.call('tokens.delete', { id: minted.token.id });
    expect(revoked).toEqual({ id: minted.token.id, deleted: true });
    expect(
      (await relay.api('GET', '/api/webhooks', undefined, { token: minted.value })).status,
    ).toBe(401);
    expect((await relay.call('tokens.list', {})).items).toEqual([]);
    const again = await relay.callError('tokens.delete', { id: minted.token.id });
    expect(again.code).toBe('not_found');
  });

  it('ends the browser sessions opened with a token when it is revoked, and only those', async () => {
    const minted = await mint('laptop', 'view');
    const sessionFrom = (response: Response): string => {
      const cookie = /hookport_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '');
      expect(cookie).not.toBeNull();
      return cookie![0];
    };
    const viaLink = sessionFrom(
      await fetch(`${relay.adminUrl}/login?token=${minted.value}`, { redirect: 'manual' }),
    );
    const viaForm = sessionFrom(
      await fetch(`${relay.adminUrl}/api/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: minted.value }),
      }),
    );
    const admin = sessionFrom(
      await fetch(`${relay.adminUrl}/login?token=${relay.adminToken}`, { redirect: 'manual' }),
    );
    const statusWith = async (cookie: string): Promise<number> =>
      (await fetch(`${relay.adminUrl}/api/webhooks`, { headers: { cookie } })).status;
    expect([await statusWith(viaLink), await statusWith(viaForm)]).toEqual([200, 200]);

    await relay.call('tokens.delete', { id: minted.token.id });
    expect([await statusWith(viaLink), await statusWith(viaForm)]).toEqual([401, 401]);
    expect(await statusWith(admin)).toBe(200);
  });
});
