import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { post } from '../signatures/support/relay-calls.js';
import { genuineDelivery, SENDERS } from '../signatures/support/senders.js';

/**
 * Every byte form a signing secret could be written in: as typed, base64, base64url and hex of its
 * text, and for a `whsec_` secret the key it stands for (raw, hex, base64url), which is what
 * Standard Webhooks actually signs with.
 */
function forms(value: string): Buffer[] {
  const text = Buffer.from(value, 'utf8');
  const strings = [
    value,
    text.toString('base64'),
    text.toString('base64url'),
    text.toString('hex'),
  ];
  const out = strings.map((s) => Buffer.from(s, 'utf8'));
  if (value.startsWith('whsec_')) {
    const key = Buffer.from(value.slice('whsec_'.length), 'base64');
    out.push(key, Buffer.from(key.toString('hex')), Buffer.from(key.toString('base64url')));
  }
  return out;
}

/** Relay data files a value must never be found in; secrets.enc only ever holds ciphertext. */
const SCANNED_FILES = [
  'hookport.sqlite',
  'hookport.sqlite-wal',
  'hookport.sqlite-shm',
  'secrets.enc',
];

describe.each(['file', 'keychain'] as const)(
  'signing secrets of every scheme, shared and rotated, never leak (%s backend)',
  (backend) => {
    let keyring: KeyringSession | null = null;
    let relay: TestRelay;
    const dataDir = tempDir();
    const values: string[] = [];
    const statuses: Array<{ scheme: string; which: string; status: number }> = [];
    const reads: string[] = [];

    beforeAll(async () => {
      if (backend === 'keychain') keyring = await startKeyringSession();
      relay = await startTestRelay({ dataDir, secretBackend: backend });
      for (const sender of SENDERS) {
        // The provider's secret is pasted once as a team secret; the webhook refers to it by name.
        const name = `signing-${sender.scheme}`;
        await relay.call('secrets.create', { name, value: sender.secret });
        const { ingressUrl } = await relay.createWebhook({
          name: sender.scheme,
          authMode: 'signature',
          signatureScheme: sender.scheme,
          secretName: name,
          ...(sender.signatureOptions ? { signatureOptions: sender.signatureOptions } : {}),
        });
        const send = async (which: string, secret: string): Promise<void> => {
          const delivery = genuineDelivery(sender, { secret });
          const sent = await post(ingressUrl, delivery.body, delivery.headers);
          statuses.push({ scheme: sender.scheme, which, status: sent.status });
        };
        await send('genuine', sender.secret);
        await send('forged', sender.otherSecret);
        await relay.call('secrets.rotate', { name, value: sender.otherSecret });
        await send('after rotation, new', sender.otherSecret);
        await send('after rotation, old', sender.secret);
        values.push(sender.secret, sender.otherSecret);
      }
      // A Standard Webhooks secret the relay generates, then rotates.
      const generated = await relay.createWebhook({
        name: 'generated-whsec',
        authMode: 'signature',
        signatureScheme: 'standard-webhooks',
      });
      const rotated = await relay.call('webhooks.rotate', { uid: generated.webhook.uid });
      values.push(generated.secret!, rotated.secret);

      // Reads stay raw HTTP: every byte of each answer is searched, not only the contract's fields.
      const webhooks = await relay.api<{ items: Array<{ uid: string }> }>('GET', '/api/webhooks');
      reads.push(
        JSON.stringify(webhooks.body),
        JSON.stringify((await relay.api('GET', '/api/secrets')).body),
      );
      for (const { uid } of webhooks.body.items) {
        reads.push(JSON.stringify((await relay.api('GET', `/api/webhooks/${uid}`)).body));
        reads.push(
          JSON.stringify((await relay.api('GET', `/api/webhooks/${uid}/deliveries?limit=50`)).body),
        );
      }
      await relay.core.stop();
    });
    afterAll(async () => {
      await relay?.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await keyring?.stop();
    });

    it('verifies with the shared value and switches every scheme at once on rotation', () => {
      const expected = (which: string): number =>
        which === 'genuine' || which === 'after rotation, new' ? 202 : 401;
      expect(statuses).toHaveLength(SENDERS.length * 4);
      for (const { scheme, which, status } of statuses)
        expect(status, `${scheme} ${which}`).toBe(expected(which));
    });

    it('keeps no value, in any form, in SQLite, its WAL and shared memory, or the secrets file', () => {
      const scanned = SCANNED_FILES.map((file) => join(dataDir, file)).filter(existsSync);
      expect(scanned.some((path) => path.endsWith('hookport.sqlite'))).toBe(true);
      if (backend === 'file')
        expect(scanned.some((path) => path.endsWith('secrets.enc'))).toBe(true);
      for (const path of scanned) {
        const bytes = readFileSync(path);
        for (const value of values)
          for (const form of forms(value))
            expect(bytes.includes(form), `${path}: ${value.slice(0, 6)}…`).toBe(false);
      }
    });

    it('writes no value, in any form, to the log', () => {
      const log = Buffer.from(relay.logs.join('\n'));
      expect(log.includes('Rejected (auth)')).toBe(true);
      for (const value of values)
        for (const form of forms(value)) expect(log.includes(form)).toBe(false);
    });

    it('returns no value from any read of webhooks, secrets or deliveries', () => {
      const body = Buffer.from(reads.join('\n'));
      for (const value of values)
        for (const form of forms(value)) expect(body.includes(form)).toBe(false);
    });
  },
);
