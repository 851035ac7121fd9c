import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSignatureScheme } from '../../../src/main/ingress/schemes/index.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';

const DB_FILES = ['hookport.sqlite', 'hookport.sqlite-wal', 'hookport.sqlite-shm'];

/**
 * PRODUCT §5: secret values never reach the SQLite file. Read the database's bytes — main file,
 * WAL and shared memory — after webhooks were created, rotated and used, and look for every
 * secret, token and the admin token.
 */
describe('secret values at rest', () => {
  let relay: TestRelay;
  let dataDir: string;
  const secrets: string[] = [];
  beforeEach(async () => {
    dataDir = tempDir();
    relay = await startTestRelay({ dataDir });
    secrets.length = 0;
  });
  afterEach(() => relay.stop());

  function databaseBytes(): Buffer {
    return Buffer.concat(
      DB_FILES.map((f) => join(dataDir, f))
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f)),
    );
  }

  function leaks(bytes: Buffer): string[] {
    return secrets.filter((secret) => {
      const needles = [Buffer.from(secret, 'utf8')];
      if (secret.startsWith('whsec_')) needles.push(Buffer.from(secret.slice(6), 'base64'));
      if (/^[A-Za-z0-9_-]{43}$/.test(secret)) needles.push(Buffer.from(secret, 'base64url'));
      return needles.some((needle) => needle.length >= 8 && bytes.includes(needle));
    });
  }

  async function useEveryKindOfSecret(): Promise<void> {
    const keep = (value: string | null | undefined): string => {
      if (!value) throw new Error('expected a secret value');
      secrets.push(value);
      return value;
    };
    keep(relay.adminToken);

    const token = await relay.createWebhook({ name: 'bearer' });
    keep(token.secret);
    expect((await postDelivery(token.ingressUrl, '{"a":1}', bearer(token.secret))).status).toBe(
      202,
    );
    const rotatedToken = await relay.call('webhooks.rotate', { uid: token.webhook.uid });
    keep(rotatedToken.secret);
    expect(
      (await postDelivery(token.ingressUrl, '{"a":2}', bearer(rotatedToken.secret))).status,
    ).toBe(202);
    expect(
      (await postDelivery(token.ingressUrl, '{"a":3}', bearer(keep('guessed-bearer-token-123'))))
        .status,
    ).toBe(401);

    const url = await relay.createWebhook({ name: 'url', authMode: 'url_token' });
    keep(url.secret);
    expect((await postDelivery(url.ingressUrl, '{"b":1}')).status).toBe(202);
    const rotatedUrl = await relay.call('webhooks.rotate', { uid: url.webhook.uid });
    keep(rotatedUrl.secret);
    expect((await postDelivery(rotatedUrl.ingressUrl, '{"b":2}')).status).toBe(202);
    const guessed = keep('guessedUrlToken-0123456789');
    expect(
      (await postDelivery(`${relay.ingressUrl}/webhooks/w/${url.webhook.uid}/${guessed}`, '{}'))
        .status,
    ).toBe(401);

    const stripeSecret = keep('whsec_stripeSigningSecretForTheTest');
    const stripe = await relay.createWebhook({
      name: 'stripe',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: stripeSecret,
    });
    const body = Buffer.from('{"type":"charge.succeeded"}');
    const signed = getSignatureScheme('stripe').sign({
      body,
      secret: stripeSecret,
      timestamp: Math.floor(Date.now() / 1000),
      id: 'x',
      options: null,
    });
    expect((await postDelivery(stripe.ingressUrl, body, signed)).status).toBe(202);
    const nextStripe = keep('whsec_rotatedStripeSigningSecret');
    await relay.call('webhooks.rotate', { uid: stripe.webhook.uid, secret: nextStripe });

    const standard = await relay.createWebhook({
      name: 'standard',
      authMode: 'signature',
      signatureScheme: 'standard-webhooks',
    });
    keep(standard.secret);
    const rotatedStandard = await relay.call('webhooks.rotate', { uid: standard.webhook.uid });
    keep(rotatedStandard.secret);

    for (const role of ['manage', 'view'] as const) {
      const minted = await relay.call('tokens.create', { name: role, role });
      keep(minted.value);
    }
    const login = await fetch(relay.core.loginLink(), { redirect: 'manual' });
    const session = login.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!;
    keep(session);
  }

  it('keeps every secret, token and session out of hookport.sqlite, its WAL and its shm', async () => {
    await useEveryKindOfSecret();
    expect(secrets.length).toBeGreaterThanOrEqual(14);
    const live = databaseBytes();
    expect(live.length).toBeGreaterThan(0);
    // The check is real: a value that *is* stored (a payload) is found this way.
    expect(live.includes(Buffer.from('charge.succeeded'))).toBe(true);
    expect(leaks(live)).toEqual([]);

    await relay.stop();
    expect(leaks(databaseBytes())).toEqual([]);
    relay = await startTestRelay({ dataDir });
  });
});
