import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery } from '../../support/deliveries.js';
import { httpRequest } from '../../support/http-request.js';
import { callTool, connectHttp, type McpConnection } from '../../support/mcp-client.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

const TEXT_PART_MAX = 64 * 1024;

/** `/mcp` on the admin listener: the API's token, Host and Origin rules, and the 64 KB rule. */
describe('the MCP endpoint on the admin listener', () => {
  let relay: TestRelay;
  let port: string;
  let deliveryId: string;
  let bigId: string;
  let big: string;

  const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const post = (headers: Record<string, string>, body = listTools) =>
    httpRequest(`${relay.adminUrl}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });
  const deliveryCount = async (uid: string): Promise<number> =>
    (await relay.call('deliveries.count', { uid })).total;

  let uid: string;
  beforeAll(async () => {
    relay = await startTestRelay();
    port = new URL(relay.adminUrl).port;
    const created = await relay.createWebhook({ name: 'bulk' });
    uid = created.webhook.uid;
    const small = await postDelivery(
      created.ingressUrl,
      '{"hello":"world"}',
      bearer(created.secret),
    );
    deliveryId = small.body.delivery_id!;
    big = JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => `row ${i} `.repeat(8)) });
    expect(Buffer.byteLength(big)).toBeGreaterThan(TEXT_PART_MAX);
    const sent = await postDelivery(created.ingressUrl, big, bearer(created.secret));
    bigId = sent.body.delivery_id!;
  });
  afterAll(() => relay?.stop());

  it('answers 401 without a token or with a bad one, and never to a session cookie', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="hookport"');
    expect(JSON.parse(none.body)).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await post(bearer('hpt_not-a-token'))).status).toBe(401);

    const login = await relay.api('POST', '/api/session', { token: relay.adminToken });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect((await post({ cookie })).status).toBe(401);
    expect((await post(bearer(relay.adminToken))).status).toBe(200);
  });

  it('refuses a browser page of another origin, and a foreign Host, with 403', async () => {
    const replay = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'replay_delivery', arguments: { id: deliveryId } },
    });
    const before = await deliveryCount(uid);
    const foreign = await post(
      { ...bearer(relay.adminToken), origin: 'http://evil.example' },
      replay,
    );
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({
      error: { code: 'forbidden', message: 'Cross-site requests are refused.' },
    });
    const crossSite = await post(
      { ...bearer(relay.adminToken), 'sec-fetch-site': 'cross-site' },
      replay,
    );
    expect(crossSite.status).toBe(403);
    const rebound = await post(
      { ...bearer(relay.adminToken), host: `evil.example:${port}` },
      replay,
    );
    expect(rebound.status).toBe(403);
    expect(await deliveryCount(uid)).toBe(before);

    const own = await post({ ...bearer(relay.adminToken), origin: `http://127.0.0.1:${port}` });
    expect(own.status).toBe(200);
  });

  it('takes POST only: no sessions to open with GET or end with DELETE', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await httpRequest(`${relay.adminUrl}/mcp`, {
        method,
        headers: bearer(relay.adminToken),
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe('POST');
    }
  });

  it('hands out a payload over 64 KB as a resource, read whole with resources/read', async () => {
    const mcp: McpConnection = await connectHttp(relay.adminUrl, relay.adminToken);
    try {
      const uri = `hookport://deliveries/${bigId}/payload`;
      const result = await callTool(mcp.client, 'get_delivery', { id: bigId });
      expect(result.data).toMatchObject({ id: bigId, payload: null, payloadResource: uri });
      expect(result.content).toContainEqual(
        expect.objectContaining({ type: 'resource_link', uri, mimeType: 'application/json' }),
      );
      for (const part of result.content) {
        if (part.type === 'text')
          expect(Buffer.byteLength(part.text)).toBeLessThanOrEqual(TEXT_PART_MAX);
      }
      expect(result.summary).toContain(`too large to include: read ${uri}`);
      const read = await mcp.client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, mimeType: 'application/json', text: big }]);

      const small = await callTool(mcp.client, 'get_delivery', { id: deliveryId });
      expect(small.data).toMatchObject({ payload: '{"hello":"world"}' });
      expect(small.content.filter((part) => part.type === 'resource_link')).toEqual([]);

      await expect(
        mcp.client.readResource({
          uri: 'hookport://deliveries/dlv_01J00000000000000000000000/payload',
        }),
      ).rejects.toThrow('No delivery dlv_01J00000000000000000000000; it may have been pruned.');
      expect((await getDelivery(relay, bigId)).payload).toBe(big);
    } finally {
      await mcp.close();
    }
  });
});
