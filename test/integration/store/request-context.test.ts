import { rmSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait.js';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { sqliteDbOf } from '../../../src/main/store/sqlite/sqlite-store.js';

/** Sends raw header pairs exactly as given (order, case, repeats), as a real sender's stack does. */
function send(url: string, pairs: Array<[string, string]>, body: string): Promise<number> {
  // Raw pairs make Node add no Host header of its own.
  const flat = [['Host', new URL(url).host], ...pairs].flat();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: flat }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the stored request context of a log entry', () => {
  let relay: TestRelay;
  afterEach(async () => relay?.stop());

  it('keeps headers in received order with names as sent, repeats included, credentials redacted', async () => {
    relay = await startTestRelay();
    const { webhook, secret } = await relay.createWebhook({ name: 'ctx', authMode: 'token' });
    const body = '{"a":1}';
    const status = await send(
      `${webhook.ingressUrl}?from=test`,
      [
        ['X-First', 'one'],
        ['Authorization', `Bearer ${secret}`],
        ['x-repeated', 'a'],
        ['X-Repeated', 'b'],
        ['Cookie', 'session=abc'],
        ['Content-Length', String(body.length)],
      ],
      body,
    );
    expect(status).toBe(202);
    const [entry] = sqliteDbOf(relay.core.store)
      .prepare<[], { delivery_id: string; method: string; path: string; headers: string }>(
        'SELECT * FROM request_contexts',
      )
      .all();
    expect(entry!.method).toBe('POST');
    expect(entry!.path).toBe(`/webhooks/w/${webhook.uid}?from=test`);
    const headers = JSON.parse(entry!.headers) as Array<[string, string]>;
    expect(headers.filter(([n]) => n !== 'Host' && n !== 'Connection')).toEqual([
      ['X-First', 'one'],
      ['Authorization', '[redacted]'],
      ['x-repeated', 'a'],
      ['X-Repeated', 'b'],
      ['Cookie', '[redacted]'],
      ['Content-Length', String(body.length)],
    ]);
  });

  it('stores a URL token as {token} in the path, also for a refused request', async () => {
    relay = await startTestRelay();
    const { webhook, secret } = await relay.createWebhook({ name: 'url', authMode: 'url_token' });
    const base = webhook.ingressUrl.replace('/{token}', '');
    expect(await send(`${base}/${secret}`, [], '{}')).toBe(202);
    expect(await send(`${base}/wrong-token-wrong-token`, [], '{}')).toBe(401);
    // A rejection promises the sender nothing, so it may be written after its 401 is answered.
    const read = (): string[] =>
      sqliteDbOf(relay.core.store)
        .prepare<[], { path: string }>('SELECT path FROM request_contexts')
        .all()
        .map((r) => r.path);
    const paths = await waitFor(() => (read().length === 2 ? read() : null), 'both entries');
    expect(paths).toEqual([
      `/webhooks/w/${webhook.uid}/{token}`,
      `/webhooks/w/${webhook.uid}/{token}`,
    ]);
  });
});

describe('migration 007: request contexts without a rowid', () => {
  it('keeps every stored request when an older database is upgraded', async () => {
    const dataDir = tempDir();
    let relay = await startTestRelay({ dataDir });
    const { webhook, secret } = await relay.createWebhook({ name: 'old', authMode: 'token' });
    expect(
      await send(
        webhook.ingressUrl,
        [
          ['Authorization', `Bearer ${secret}`],
          ['X-Kept', 'yes'],
        ],
        '{}',
      ),
    ).toBe(202);
    const [{ delivery_id: id }] = sqliteDbOf(relay.core.store)
      .prepare<[], { delivery_id: string }>('SELECT delivery_id FROM request_contexts')
      .all() as [{ delivery_id: string }];
    await relay.core.stop();

    // Put the file back as if migration 007 had not run: a rowid table, version 7 not recorded.
    const db = new Database(join(dataDir, 'hookport.sqlite'));
    db.exec(`
      CREATE TABLE rc3 (delivery_id TEXT PRIMARY KEY, method TEXT NOT NULL, path TEXT NOT NULL,
                        headers TEXT NOT NULL) STRICT;
      INSERT INTO rc3 SELECT * FROM request_contexts;
      DROP TABLE request_contexts;
      ALTER TABLE rc3 RENAME TO request_contexts;
    `);
    db.prepare('DELETE FROM hookport_schema WHERE version = 7').run();
    db.close();

    relay = await startTestRelay({ dataDir });
    try {
      const table = sqliteDbOf(relay.core.store)
        .prepare<[], { sql: string }>(
          "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'request_contexts'",
        )
        .get()!;
      expect(table.sql).toContain('WITHOUT ROWID');
      const entry = await relay.call('deliveries.get', { id });
      expect(entry.headers).toContainEqual(['X-Kept', 'yes']);
      expect(entry.headers).toContainEqual(['Authorization', '[redacted]']);
    } finally {
      await relay.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
