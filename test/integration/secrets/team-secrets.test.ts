import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import {
  bearer,
  deleteAllWebhooks,
  postDelivery,
  startTestRelay,
  type TestRelay,
} from '../../support/relay.js';
import type { MethodInput } from '../../../src/shared/contract/index.js';

describe.each(['file', 'keychain'] as const)('team secrets kept in the %s backend', (backend) => {
  let keyring: KeyringSession | null = null;
  let relay: TestRelay;
  beforeAll(async () => {
    if (backend === 'keychain') keyring = await startKeyringSession();
    relay = await startTestRelay({ secretBackend: backend });
  });
  afterAll(async () => {
    await relay.stop();
    await keyring?.stop();
  });
  // One relay for the file; each test starts from none of its webhooks and secrets, as a fresh
  // relay would (webhooks first: a secret in use cannot be deleted).
  afterEach(async () => {
    await deleteAllWebhooks(relay);
    for (const { name } of (await relay.call('secrets.list', {})).items) {
      await relay.call('secrets.delete', { name });
    }
    keyring?.clear();
  });

  const create = (input: MethodInput<'secrets.create'>) => relay.call('secrets.create', input);

  it('says which backend holds the values', async () => {
    const listed = await relay.call('secrets.list', {});
    expect(listed.backend).toBe(backend);
    expect(listed.backendDescription).toMatch(
      backend === 'keychain' ? /OS keychain/ : /encrypted file/,
    );
  });

  it('shows a generated value once, then only its name and fingerprint', async () => {
    const created = await create({ name: 'deploy-hook' });
    expect(created.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // An HMAC under the relay's key (issue 24), not the SHA-256 prefix anyone could check a guess against.
    const fingerprint = created.secret.fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{8}$/);
    const sha256Prefix = createHash('sha256').update(created.value).digest('hex').slice(0, 8);
    expect(fingerprint).not.toBe(sha256Prefix);
    const listed = await relay.call('secrets.list', {});
    expect(listed.items).toEqual([
      expect.objectContaining({ name: 'deploy-hook', fingerprint, usedBy: [] }),
    ]);
    // The raw answer, every field of it: the value must not be on the wire at all.
    expect(JSON.stringify((await relay.api('GET', '/api/secrets')).body)).not.toContain(
      created.value,
    );
    if (keyring) {
      const lookup = keyring.secretTool([
        'lookup',
        'service',
        'hookport',
        'username',
        'default/deploy-hook',
      ]);
      expect(lookup.stdout).toBe(created.value);
    }
  });

  it('takes a supplied value and refuses a second secret of the same name', async () => {
    expect((await create({ name: 'partner', value: 'supplied-value-0123456789' })).value).toBe(
      'supplied-value-0123456789',
    );
    const again = await relay.callError('secrets.create', { name: 'partner' });
    expect(again).toMatchObject({ code: 'conflict', path: 'name' });
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
    const old = shared.value;
    expect((await postDelivery(token.ingressUrl, '{"n":1}', bearer(old))).status).toBe(202);
    expect((await postDelivery(urlWith(old), '{"n":2}')).status).toBe(202);

    const rotated = await relay.call('secrets.rotate', { name: 'shared' });
    expect(rotated.secret.usedBy.map((w) => w.name).sort()).toEqual(['bearer', 'in-url']);
    const next = rotated.value;
    expect(next).not.toBe(old);
    expect((await postDelivery(token.ingressUrl, '{"n":3}', bearer(old))).status).toBe(401);
    expect((await postDelivery(urlWith(old), '{"n":4}')).status).toBe(401);
    expect((await postDelivery(token.ingressUrl, '{"n":5}', bearer(next))).status).toBe(202);
    expect((await postDelivery(urlWith(next), '{"n":6}')).status).toBe(202);
  });

  it('refuses a url_token webhook on a secret that is not URL-safe, naming the field', async () => {
    await create({ name: 'spaced', value: 'has a space inside' });
    const refused = await relay.callError('webhooks.create', {
      name: 'hook',
      authMode: 'url_token',
      secretName: 'spaced',
    });
    expect(refused).toMatchObject({
      code: 'invalid_input',
      path: 'secretName',
      message: expect.stringContaining('url_token') as unknown,
    });
  });

  it('refuses to rotate to a value that a webhook using it cannot take', async () => {
    await create({ name: 'for-url' });
    await relay.createWebhook({ name: 'hook', authMode: 'url_token', secretName: 'for-url' });
    const refused = await relay.callError('secrets.rotate', {
      name: 'for-url',
      value: 'slashes/are/not/url-safe',
    });
    expect(refused).toMatchObject({ code: 'invalid_input', path: 'value' });
  });

  it("asks for the provider's new value instead of generating one for a signed webhook", async () => {
    await create({ name: 'github-signing', value: 'gh-secret-1' });
    await relay.createWebhook({
      name: 'gh',
      authMode: 'signature',
      signatureScheme: 'github',
      secretName: 'github-signing',
    });
    const refused = await relay.callError('secrets.rotate', { name: 'github-signing' });
    expect(refused).toMatchObject({
      code: 'invalid_input',
      path: 'value',
      message:
        "value: paste the new signing secret from the provider: gh checks the provider's signature with it, so Hookport cannot make one up",
    });
    const rotated = await relay.call('secrets.rotate', {
      name: 'github-signing',
      value: 'gh-secret-2',
    });
    expect(rotated.value).toBe('gh-secret-2');
  });

  it('refuses to delete a secret in use, naming the webhooks; deletes it once unused', async () => {
    await create({ name: 'in-use' });
    const hook = await relay.createWebhook({ name: 'user-of-it', secretName: 'in-use' });
    const refused = await relay.callError('secrets.delete', { name: 'in-use' });
    expect(refused).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('user-of-it') as unknown,
    });
    await relay.call('webhooks.delete', { uid: hook.webhook.uid });
    await relay.call('secrets.delete', { name: 'in-use' });
    expect((await relay.call('secrets.list', {})).items).toEqual([]);
    if (keyring) {
      expect(
        keyring.secretTool(['lookup', 'service', 'hookport', 'username', 'default/in-use']).stdout,
      ).toBe('');
    }
  });

  it('answers 404 for a secret that does not exist', async () => {
    expect((await relay.callError('secrets.rotate', { name: 'nope' })).code).toBe('not_found');
    expect((await relay.callError('secrets.delete', { name: 'nope' })).code).toBe('not_found');
  });
});
