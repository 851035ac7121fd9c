import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

type Revealed = { value?: string; secret?: string | null; ingressUrl?: string };

/** The forms a value could take on disk or in a log: as is, base64 and hex of its bytes. */
const forms = (value: string): string[] => {
  const bytes = Buffer.from(value, 'utf8');
  return [value, bytes.toString('base64'), bytes.toString('hex')];
};

describe.each(['file', 'keychain'] as const)('no secret value leaks (%s backend)', (backend) => {
  let keyring: KeyringSession | null = null;
  let relay: TestRelay;
  const values: string[] = [];
  const readsAndErrors: string[] = [];

  beforeAll(async () => {
    if (backend === 'keychain') keyring = await startKeyringSession();
    relay = await startTestRelay({ secretBackend: backend });
    const keep = (body: Revealed): Revealed => {
      for (const v of [body.value, body.secret]) if (typeof v === 'string') values.push(v);
      return body;
    };
    // Raw HTTP on purpose: every byte of each answer is searched, not only the contract's fields.
    const post = async (path: string, body: unknown): Promise<Revealed> =>
      keep((await relay.api<Revealed>('POST', path, body)).body);

    // Team secrets: generated, supplied, rotated both ways.
    await post('/api/secrets', { name: 'team-generated' });
    await post('/api/secrets', { name: 'team-supplied', value: 'supplied-team-value-7f3a9c' });
    await post('/api/secrets/team-generated/rotate', {});
    await post('/api/secrets/team-supplied/rotate', { value: 'rotated-team-value-1b2c3d' });
    // Webhook secrets of every mode, then rotated; deliveries that succeed and fail.
    const token = await post('/api/webhooks', { name: 'token-hook' });
    const url = await post('/api/webhooks', { name: 'url-hook', authMode: 'url_token' });
    const signed = await post('/api/webhooks', {
      name: 'stripe-hook',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: 'whsec_stripeSigningSecret0123456789',
    });
    await postDelivery(token.ingressUrl!, '{"a":1}', bearer(token.secret!));
    await postDelivery(token.ingressUrl!, '{"a":2}', bearer('wrong-token-value'));
    await postDelivery(url.ingressUrl!, '{"a":3}');
    await postDelivery(signed.ingressUrl!, '{"a":4}', { 'stripe-signature': 't=1,v1=00' });
    const uid = (
      await relay.api<{ items: Array<{ uid: string; name: string }> }>('GET', '/api/webhooks')
    ).body.items.find((w) => w.name === 'token-hook')!.uid;
    await post(`/api/webhooks/${uid}/rotate`, {});
    const minted = await post('/api/tokens', { name: 'ci', role: 'view' });
    values.push(relay.adminToken);

    // Every read and a few refusals, whose bodies must not carry a value either.
    for (const path of [
      '/api/secrets',
      '/api/webhooks',
      `/api/webhooks/${uid}`,
      `/api/webhooks/${uid}/deliveries`,
      '/api/tokens',
    ]) {
      readsAndErrors.push(JSON.stringify((await relay.api('GET', path)).body));
    }
    readsAndErrors.push(
      JSON.stringify((await relay.api('POST', '/api/secrets', { name: 'team-generated' })).body),
    );
    readsAndErrors.push(
      JSON.stringify(
        (await relay.api('POST', '/api/secrets/team-supplied/rotate', { value: ' padded ' })).body,
      ),
    );
    readsAndErrors.push(
      JSON.stringify(
        (await relay.api('GET', '/api/secrets', undefined, { token: minted.value! })).body,
      ),
    );
    await relay.core.stop();
  });
  afterAll(async () => {
    await relay?.stop();
    await keyring?.stop();
  });

  it('revealed every value once, so there is something to look for', () => {
    expect(values.length).toBeGreaterThanOrEqual(9);
    expect(new Set(values).size).toBe(values.length);
  });

  it('scans the database for real: a stored payload is found', () => {
    const stored = ['hookport.sqlite', 'hookport.sqlite-wal']
      .map((f) => join(relay.dataDir, f))
      .filter(existsSync)
      .some((path) => readFileSync(path).includes('{"a":1}'));
    expect(stored).toBe(true);
  });

  it('keeps no value in the SQLite file, its WAL or its shared memory', () => {
    for (const file of ['hookport.sqlite', 'hookport.sqlite-wal', 'hookport.sqlite-shm']) {
      const path = join(relay.dataDir, file);
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      for (const value of values)
        for (const form of forms(value)) expect(bytes.includes(form), `${file}`).toBe(false);
    }
  });

  it('writes no value to the log', () => {
    const log = relay.logs.join('\n');
    expect(log).toContain('[ingress] 202');
    for (const value of values) for (const form of forms(value)) expect(log).not.toContain(form);
  });

  it('returns no value from a read or in an error body', () => {
    for (const body of readsAndErrors)
      for (const value of values) expect(body).not.toContain(value);
  });
});
