import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDelivery, waitForDeliveries } from '../../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * PRODUCT §3: the body is UTF-8 decoded fatally (invalid UTF-8 → 400), one leading BOM is
 * tolerated and kept in the stored bytes, and Content-Encoding is never decoded.
 */
describe.each(storeKinds)('the bytes of a body (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  // A webhook of its own per test: its log is the test's alone (deleted after it, since a
  // factory holds 20 live webhooks).
  beforeEach(async () => {
    hook = await relay.createWebhook({ name: 'bytes' });
  });
  afterEach(() => relay.call('webhooks.delete', { uid: hook.webhook.uid }));

  const send = (body: Buffer, headers: Record<string, string> = {}) =>
    postDelivery(hook.ingressUrl, body, { ...bearer(hook.secret), ...headers });

  it.each([
    ['a stray 0xFF byte', Buffer.from([0x22, 0xff, 0x22])],
    ['an overlong "/" (C0 AF)', Buffer.from([0x22, 0xc0, 0xaf, 0x22])],
    ['an encoded surrogate (ED A0 80)', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['a truncated sequence', Buffer.from([0x22, 0xe2, 0x82, 0x22])],
  ])('refuses invalid UTF-8 (%s) with 400 "Rejected (invalid JSON)"', async (_name, body) => {
    const sent = await send(body);
    expect(sent.status).toBe(400);
    expect(sent.body.error?.code).toBe('invalid_json');
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    expect(entry).toMatchObject({
      label: 'Rejected (invalid JSON)',
      size: body.length,
      reason: 'body is not valid UTF-8',
    });
    expect((await send(Buffer.from('"fine"'))).status).toBe(202);
  });

  it('accepts one leading BOM and stores the bytes as sent, BOM included', async () => {
    const body = Buffer.concat([BOM, Buffer.from('{"with":"bom"}')]);
    const sent = await send(body);
    expect(sent.status).toBe(202);
    const entry = await getDelivery(relay, sent.body.delivery_id!);
    expect(entry.size).toBe(body.length);
    expect(Buffer.from(entry.payload!, 'utf8').equals(body)).toBe(true);
  });

  it('refuses two leading BOMs with 400', async () => {
    const sent = await send(Buffer.concat([BOM, BOM, Buffer.from('{"with":"boms"}')]));
    expect(sent.status).toBe(400);
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    expect(entry!.label).toBe('Rejected (invalid JSON)');
  });

  it('does not decode Content-Encoding: a gzip body is invalid JSON', async () => {
    const sent = await send(gzipSync('{"zipped":true}'), { 'content-encoding': 'gzip' });
    expect(sent.status).toBe(400);
  });

  it('does not enforce Content-Type', async () => {
    const sent = await send(Buffer.from('{"typed":"oddly"}'), { 'content-type': 'text/plain' });
    expect(sent.status).toBe(202);
  });

  it('refuses an empty body with 400', async () => {
    expect((await send(Buffer.alloc(0))).status).toBe(400);
  });

  // A webhook without automations is checked without a parsed tree (steps/check-json.ts); these
  // are where that check's own parser would answer differently from JSON.parse.
  it('refuses a NUL byte after a JSON value with 400', async () => {
    const sent = await send(Buffer.from('{"a":1}\u0000{"b":2}', 'utf8'));
    expect(sent.status).toBe(400);
    expect(sent.body.error?.code).toBe('invalid_json');
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    expect(entry!.reason).toBe('body is not valid JSON near character 7');
  });

  it('accepts JSON nested 2,000 deep, as it does for a webhook with automations', async () => {
    const deep = `${'['.repeat(2000)}"deep"${']'.repeat(2000)}`;
    const sent = await send(Buffer.from(deep));
    expect(sent.status).toBe(202);
    expect((await getDelivery(relay, sent.body.delivery_id!)).payload).toBe(deep);
  });
});
