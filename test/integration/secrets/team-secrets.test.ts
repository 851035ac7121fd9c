import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

type Revealed = {
  secret: { name: string; fingerprint: string; usedBy: Array<{ name: string }> };
  value: string;
};
type Listed = {
  items: Array<Record<string, unknown>>;
  backend: string;
  backendDescription: string;
};

describe.each(['file', 'keychain'] as const)('team secrets kept in the %s backend', (backend) => {
  let keyring: KeyringSession | null = null;
  let relay: TestRelay;
  beforeAll(async () => {
    if (backend === 'keychain') keyring = await startKeyringSession();
  });
  afterAll(() => keyring?.stop());
  beforeEach(async () => {
    keyring?.clear();
    relay = await startTestRelay({ secretBackend: backend });
  });
  afterEach(() => relay.stop());

  const create = async (body: Record<string, unknown>) =>
    relay.api<Revealed>('POST', '/api/secrets', body);

  it('says which backend holds the values', async () => {
    const listed = await relay.api<Listed>('GET', '/api/secrets');
    expect(listed.body.backend).toBe(backend);
    expect(listed.body.backendDescription).toMatch(
      backend === 'keychain' ? /OS keychain/ : /encrypted file/,
    );
  });

  it('shows a generated value once, then only its name and fingerprint', async () => {
    const created = await create({ name: 'deploy-hook' });
    expect(created.status).toBe(201);
    expect(created.body.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // An HMAC under the relay's key (issue 24), not the SHA-256 prefix anyone could check a guess against.
    const fingerprint = created.body.secret.fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    const sha256Prefix = createHash('sha256').update(created.body.value).digest('hex').slice(0, 8);
    expect(fingerprint).not.toBe(sha256Prefix);
    const listed = await relay.api<Listed>('GET', '/api/secrets');
    expect(listed.body.items).toEqual([
      expect.objectContaining({ name: 'deploy-hook', fingerprint, usedBy: [] }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.value);
    if (keyring) {
      const lookup = keyring.secretTool([
        'lookup',
        'service',
        'hookport',
        'username',
        'default/deploy-hook',
      ]);
      expect(lookup.stdout).toBe(created.body.value);
    }
  });

  it('takes a supplied value and refuses a second secret of the same name', async () => {
    expect((await create({ name: 'partner', value: 'supplied-value-0123456789' })).body.value).toBe(
      'supplied-value-0123456789',
    );
    const again = await create({ name: 'partner' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: 'conflict', path: 'name' } });
  });

  it('backs several webhooks; rotating it switches all of them at once, with no overlap', async () => {
    const shared = await create({ name: 'shared' });
    const token = await relay.createWebhook({ name: 'bearer', secretName: 'shared' });
    const inUrl = await relay.createWebhook({
      name: 'in-url',
      authMode: 'url_token',
      secretName: 'shared',
    });
    expect(token.secret).toBeNull();
    expect(inUrl.secret).toBeNull();
    expect(inUrl.ingressUrl.endsWith('/{token}')).toBe(true);
    const urlWith = (value: string) => inUrl.ingressUrl.replace('{token}', value);
    const old = shared.body.value;
    expect((await postDelivery(token.ingressUrl, '{"n":1}', bearer(old))).status).toBe(202);
    expect((await postDelivery(urlWith(old), '{"n":2}')).status).toBe(202);

    const rotated = await relay.api<Revealed>('POST', '/api/secrets/shared/rotate', {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret.usedBy.map((w) => w.name).sort()).toEqual(['bearer', 'in-url']);
    const next = rotated.body.value;
    expect(next).not.toBe(old);
    expect((await postDelivery(token.ingressUrl, '{"n":3}', bearer(old))).status).toBe(401);
    expect((await postDelivery(urlWith(old), '{"n":4}')).status).toBe(401);
    expect((await postDelivery(token.ingressUrl, '{"n":5}', bearer(next))).status).toBe(202);
    expect((await postDelivery(urlWith(next), '{"n":6}')).status).toBe(202);
  });

  it('refuses a url_token webhook on a secret that is not URL-safe, naming the field', async () => {
    await create({ name: 'spaced', value: 'has a space inside' });
    const refused = await relay.api('POST', '/api/webhooks', {
      name: 'hook',
      authMode: 'url_token',
      secretName: 'spaced',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { path: 'secretName', message: expect.stringContaining('url_token') as unknown },
    });
  });

  it('refuses to rotate to a value that a webhook using it cannot take', async () => {
    await create({ name: 'for-url' });
    await relay.createWebhook({ name: 'hook', authMode: 'url_token', secretName: 'for-url' });
    const refused = await relay.api('POST', '/api/secrets/for-url/rotate', {
      value: 'slashes/are/not/url-safe',
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { code: 'invalid_input', path: 'value' } });
  });

  it("asks for the provider's new value instead of generating one for a signed webhook", async () => {
    await create({ name: 'github-signing', value: 'gh-secret-1' });
    await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secretName: 'github-signing',
    });
    const refused = await relay.api('POST', '/api/secrets/github-signing/rotate', {});
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: {
        path: 'value',
        message:
          "value: paste the new signing secret from the provider: gh checks the provider's signature with it, so Hookport cannot make one up",
      },
    });
    expect(
      (await relay.api('POST', '/api/secrets/github-signing/rotate', { value: 'gh-secret-2' }))
        .status,
    ).toBe(200);
  });

  it('refuses to delete a secret in use, naming the webhooks; deletes it once unused', async () => {
    await create({ name: 'in-use' });
    const hook = await relay.createWebhook({ name: 'user-of-it', secretName: 'in-use' });
    const refused = await relay.api('DELETE', '/api/secrets/in-use');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error: { message: expect.stringContaining('user-of-it') as unknown },
    });
    await relay.api('DELETE', `/api/webhooks/${hook.webhook.uid}`);
    expect((await relay.api('DELETE', '/api/secrets/in-use')).status).toBe(200);
    expect((await relay.api<Listed>('GET', '/api/secrets')).body.items).toEqual([]);
    if (keyring) {
      expect(
        keyring.secretTool(['lookup', 'service', 'hookport', 'username', 'default/in-use']).stdout,
      ).toBe('');
    }
  });

  it('answers 404 for a secret that does not exist', async () => {
    expect((await relay.api('POST', '/api/secrets/nope/rotate', {})).status).toBe(404);
    expect((await relay.api('DELETE', '/api/secrets/nope')).status).toBe(404);
  });
});
