import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery, logSettled } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { post } from '../signatures/support/relay-calls.js';
import { genuineDelivery, SENDERS } from '../signatures/support/senders.js';

const DATA_FILES = ['hookport.sqlite', 'hookport.sqlite-wal', 'hookport.sqlite-shm'];

/** A credential header's value as sent, and the digest inside it (what a prefix would hide). */
function forms(value: string): string[] {
  const digest = /[A-Za-z0-9+/_=-]{16,}/.exec(value)?.[0];
  return digest && digest !== value ? [value, digest] : [value];
}

/**
 * §13: request headers are stored for every log entry, but never a credential: not the
 * signature (or token) header of any scheme, not a Bearer token, not a URL token. Read from
 * the files' bytes while the relay runs (the WAL holds the newest pages) and after it stops.
 */
describe('no credential value is stored with the request headers', () => {
  let relay: TestRelay;
  const dataDir = tempDir();
  const credentials: Array<{ what: string; value: string }> = [];
  const stored: string[] = [];
  let whileRunning: Buffer[] = [];

  beforeAll(async () => {
    relay = await startTestRelay({ dataDir });
    for (const sender of SENDERS) {
      const { webhook, ingressUrl } = await relay.createWebhook({
        name: sender.scheme,
        authMode: 'signature',
        signatureScheme: sender.scheme,
        secret: sender.secret,
        ...(sender.signatureOptions ? { signatureOptions: sender.signatureOptions } : {}),
      });
      for (const secret of [sender.secret, sender.otherSecret]) {
        const delivery = genuineDelivery(sender, { secret });
        const sent = await post(ingressUrl, delivery.body, delivery.headers);
        expect(sent.status, sender.scheme).toBe(secret === sender.secret ? 202 : 401);
        credentials.push({
          what: `${sender.scheme} ${sender.signatureHeader}`,
          value: delivery.headers[sender.signatureHeader]!,
        });
      }
      credentials.push({ what: `${sender.scheme} secret`, value: sender.secret });
      stored.push(webhook.uid);
    }
    const token = await relay.createWebhook({ name: 'bearer' });
    expect((await postDelivery(token.ingressUrl, '{"t":1}', bearer(token.secret))).status).toBe(
      202,
    );
    const wrongBearer = 'wrong-bearer-token-0123456789';
    expect((await postDelivery(token.ingressUrl, '{"t":2}', bearer(wrongBearer))).status).toBe(401);
    credentials.push(
      { what: 'Bearer token', value: token.secret! },
      { what: 'wrong Bearer', value: wrongBearer },
    );

    const url = await relay.createWebhook({ name: 'url', authMode: 'url_token' });
    expect((await postDelivery(url.ingressUrl, '{"u":1}')).status).toBe(202);
    const wrongToken = 'wrong-url-token-0123456789abcdef';
    const wrongUrl = url.ingressUrl.replace(url.secret!, wrongToken);
    expect((await postDelivery(wrongUrl, '{"u":2}')).status).toBe(401);
    credentials.push(
      { what: 'URL token', value: url.secret! },
      { what: 'wrong URL token', value: wrongToken },
    );

    await logSettled(relay);
    whileRunning = DATA_FILES.map((file) => join(dataDir, file))
      .filter(existsSync)
      .map((path) => readFileSync(path));
    await relay.core.stop();
  });
  afterAll(async () => {
    await relay?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the presence of every credential header, as [redacted]', async () => {
    const reopened = await startTestRelay({ dataDir });
    try {
      for (const uid of stored) {
        const listed = await reopened.call('deliveries.list', { uid });
        for (const { id, label } of listed.items) {
          const entry = await getDelivery(reopened, id);
          const sender = SENDERS.find((s) => entry.headers?.some(([n]) => n === s.signatureHeader));
          expect(sender, `${label} ${id}`).toBeDefined();
          expect(entry.headers).toContainEqual([sender!.signatureHeader, '[redacted]']);
        }
      }
    } finally {
      await reopened.core.stop();
    }
  });

  it('has no credential value in SQLite, its WAL or shared memory, read as bytes', () => {
    expect(whileRunning.length).toBeGreaterThanOrEqual(2);
    const afterStop = DATA_FILES.map((file) => join(dataDir, file))
      .filter(existsSync)
      .map((path) => readFileSync(path));
    // The headers themselves were written: the scan reads real request rows.
    expect(whileRunning.some((bytes) => bytes.includes('[redacted]'))).toBe(true);
    expect(afterStop.some((bytes) => bytes.includes('[redacted]'))).toBe(true);
    for (const bytes of [...whileRunning, ...afterStop]) {
      for (const { what, value } of credentials)
        for (const form of forms(value)) expect(bytes.includes(form), what).toBe(false);
    }
  });

  it('has no credential value in the relay’s log', () => {
    const log = relay.logs.join('\n');
    expect(log).toContain('Rejected (auth)');
    for (const { what, value } of credentials)
      for (const form of forms(value)) expect(log.includes(form), what).toBe(false);
  });
});
