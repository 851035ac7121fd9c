import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  getDelivery,
  listDeliveries,
  logSettled,
  waitForDeliveries,
} from '../../../support/deliveries.js';
import { exchangeRaw, openRaw, requestHead } from '../../../support/raw-http.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

/**
 * PRODUCT §3: a lying or huge Content-Length is parsed strictly — a clear 4xx, never a 5xx,
 * nothing recorded that the sender was refused, and the relay serves the next sender.
 */
describe.each(storeKinds)('a hostile Content-Length (%s)', (storeKind) => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  let path: string;
  let auth: [string, string];
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  // A webhook of its own per test: its log is the test's alone (deleted after it, since a
  // factory holds 20 live webhooks).
  beforeEach(async () => {
    hook = await relay.createWebhook({ name: 'lengths' });
    path = `/webhooks/w/${hook.webhook.uid}`;
    auth = ['Authorization', `Bearer ${hook.secret}`];
  });
  afterEach(() => relay.call('webhooks.delete', { uid: hook.webhook.uid }));

  const head = (...headers: Array<[string, string]>) =>
    requestHead('POST', path, relay.ingressUrl, [auth, ...headers]);

  async function expectStillServing(): Promise<void> {
    expect(
      (await postDelivery(hook.ingressUrl, '{"after":true}', bearer(hook.secret))).status,
    ).toBe(202);
  }

  async function expectNothingLogged(): Promise<void> {
    await logSettled(relay);
    expect((await listDeliveries(relay, hook.webhook.uid)).items).toEqual([]);
  }

  it('shorter than the body: the declared bytes are the delivery, the rest is refused with 400', async () => {
    const [answer, refusal, ...more] = await exchangeRaw(relay.ingressUrl, [
      head(['Content-Length', '2']) + '12345',
    ]);
    expect(answer?.status).toBe(202);
    expect(refusal?.status).toBe(400);
    expect(more).toEqual([]);
    const id = (JSON.parse(answer!.body) as { delivery_id: string }).delivery_id;
    expect(await getDelivery(relay, id)).toMatchObject({ label: 'Accepted', payload: '12' });
    await expectStillServing();
  });

  it('shorter than the body and cutting the JSON: 400 "Rejected (invalid JSON)" for what was declared', async () => {
    const responses = await exchangeRaw(relay.ingressUrl, [
      head(['Content-Length', '5'], ['Connection', 'close']) + '{"a":1}',
    ]);
    expect(responses.map((r) => r.status)).toEqual([400]);
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    expect(entry).toMatchObject({ label: 'Rejected (invalid JSON)', size: 5 });
    await expectStillServing();
  });

  it('longer than the body (the sender then stops sending): 400 and no row', async () => {
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.end(head(['Content-Length', '50']) + '{"a":1}');
    await connection.closed;
    expect(connection.responses().map((r) => r.status)).toEqual([400]);
    await expectNothingLogged();
    await expectStillServing();
  });

  it.each([
    ['not a number', [['Content-Length', 'abc']]],
    ['signed', [['Content-Length', '+2']]],
    ['past any integer', [['Content-Length', '99999999999999999999999']]],
    [
      'sent twice, same value',
      [
        ['Content-Length', '2'],
        ['Content-Length', '2'],
      ],
    ],
    [
      'sent twice, different values',
      [
        ['Content-Length', '2'],
        ['Content-Length', '3'],
      ],
    ],
    [
      'beside Transfer-Encoding: chunked',
      [
        ['Content-Length', '2'],
        ['Transfer-Encoding', 'chunked'],
      ],
    ],
  ] as Array<[string, Array<[string, string]>]>)('%s: 400 and no row', async (_name, headers) => {
    const responses = await exchangeRaw(relay.ingressUrl, [
      head(...headers, ['Connection', 'close']) + '{} ',
    ]);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.status).toBe(400);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ error: { code: 'bad_request' } });
    await expectNothingLogged();
    await expectStillServing();
  });

  it('huge (10 GiB): 413 at once, before a single body byte is sent', async () => {
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.write(head(['Content-Length', String(10 * 1024 ** 3)]));
    await connection.closed;
    const [response] = connection.responses();
    expect(response?.status).toBe(413);
    expect(response?.headers.connection).toBe('close');
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    // Stored as limit + 1, the declared value kept in the reason (issue 24).
    expect(entry).toMatchObject({
      label: 'Rejected (too large)',
      size: 262_145,
      reason: `body exceeds 262144 bytes (declared ${10 * 1024 ** 3})`,
    });
    await expectStillServing();
  });

  it.each([
    ['1e19, past int64', '10000000000000000000', '10000000000000000000'],
    ['2^53 + 1, not a safe integer', '9007199254740993', '9007199254740993'],
    ['with leading zeros', '0000000000000000000000000262145', '262145'],
  ])('%s: 413, stored as 262,145 with the declared value as text', async (_name, sent, shown) => {
    const connection = await openRaw(relay.ingressUrl);
    connection.socket.write(head(['Content-Length', sent]));
    await connection.closed;
    expect(connection.responses().map((r) => r.status)).toEqual([413]);
    const [entry] = await waitForDeliveries(relay, hook.webhook.uid, 1);
    expect(entry).toMatchObject({
      label: 'Rejected (too large)',
      size: 262_145,
      reason: `body exceeds 262144 bytes (declared ${shown})`,
    });
    await expectStillServing();
  });

  it.each([
    ['1e23, past uint64', [['Content-Length', '100000000000000000000000']]],
    ['negative', [['Content-Length', '-5']]],
    [
      'sent twice, 1e19',
      [
        ['Content-Length', '10000000000000000000'],
        ['Content-Length', '10000000000000000000'],
      ],
    ],
  ] as Array<[string, Array<[string, string]>]>)(
    '%s, headers only: 400 and no row',
    async (_name, headers) => {
      const responses = await exchangeRaw(relay.ingressUrl, [head(...headers)]);
      expect(responses.map((r) => r.status)).toEqual([400]);
      await expectNothingLogged();
      await expectStillServing();
    },
  );
});
