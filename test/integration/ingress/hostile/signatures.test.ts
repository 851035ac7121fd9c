import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getSignatureScheme } from '../../../../src/main/ingress/schemes/index.js';
import { waitForDeliveries } from '../../../support/deliveries.js';
import { exchangeRaw, requestHead } from '../../../support/raw-http.js';
import {
  deleteAllWebhooks,
  postDelivery,
  startTestRelay,
  type TestRelay,
} from '../../../support/relay.js';
import { storeConfig, storeKinds } from '../../../support/stores.js';

const BODY = '{"type":"invoice.paid"}';
const STRIPE_SECRET = 'whsec_stripe_test_signing_secret_0123456789';

/**
 * Signature headers as an attacker would bend them (PRODUCT §3): a repeated signature header is
 * refused (401) instead of being read as one, and a timestamp that is not `^\d{1,10}$` is refused
 * (401) even when the HMAC over it is right.
 */
describe.each(storeKinds)('hostile signature headers (%s)', (storeKind) => {
  let relay: TestRelay;
  // One relay for the file; each test starts with no webhooks, as on a fresh relay (what the
  // relay decides and logs is per webhook, and the tests reuse names).
  beforeAll(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterAll(() => relay.stop());
  afterEach(() => deleteAllWebhooks(relay));

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  async function stripeWebhook() {
    return relay.createWebhook({
      name: 'stripe',
      authMode: 'signature',
      signatureScheme: 'stripe',
      secret: STRIPE_SECRET,
    });
  }

  /** Stripe's scheme, signed by hand so that any timestamp string can carry a correct HMAC. */
  const stripeHeader = (t: string) =>
    `t=${t},v1=${createHmac('sha256', STRIPE_SECRET).update(`${t}.${BODY}`).digest('hex')}`;

  it('accepts a delivery signed with sign() and one signed by hand the same way', async () => {
    const { ingressUrl } = await stripeWebhook();
    const signed = getSignatureScheme('stripe').sign({
      body: Buffer.from(BODY),
      secret: STRIPE_SECRET,
      timestamp: nowSeconds(),
      id: 'unused',
      options: null,
    });
    expect((await postDelivery(ingressUrl, BODY, signed)).status).toBe(202);
    const byHand = {
      'stripe-signature': stripeHeader(String(nowSeconds())),
      'x-service-delivery-id': '2',
    };
    expect((await postDelivery(ingressUrl, BODY, byHand)).status).toBe(202);
  });

  it('refuses a repeated Stripe-Signature header with 401, even when both copies are valid', async () => {
    const { webhook } = await stripeWebhook();
    const header = stripeHeader(String(nowSeconds()));
    const [response] = await exchangeRaw(relay.ingressUrl, [
      requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
        ['Stripe-Signature', header],
        ['Stripe-Signature', header],
        ['Content-Length', String(BODY.length)],
        ['Connection', 'close'],
      ]) + BODY,
    ]);
    expect(response?.status).toBe(401);
    const [entry] = await waitForDeliveries(relay, webhook.uid, 1);
    expect(entry).toMatchObject({
      label: 'Rejected (auth)',
      reason: 'repeated Stripe-Signature header',
    });
  });

  it('refuses Stripe timestamps that are not 1–10 digits with 401', async () => {
    const { ingressUrl, webhook } = await stripeWebhook();
    const now = String(nowSeconds());
    const malformed = [`+${now}`, `-${now}`, ` ${now}`, `${now}.0`, `0${now}`, `${now}e0`, ''];
    for (const t of malformed) {
      const sent = await postDelivery(ingressUrl, BODY, { 'stripe-signature': stripeHeader(t) });
      expect(sent.status, JSON.stringify(t)).toBe(401);
    }
    // Full-width digits cannot travel in a fetch header; send the raw UTF-8 bytes.
    const fullWidth = '\uFF11\uFF17\uFF10\uFF10\uFF10\uFF10\uFF10\uFF10\uFF10\uFF10';
    const [response] = await exchangeRaw(relay.ingressUrl, [
      Buffer.from(
        requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
          ['Stripe-Signature', stripeHeader(fullWidth)],
          ['Content-Length', String(BODY.length)],
          ['Connection', 'close'],
        ]) + BODY,
        'utf8',
      ),
    ]);
    expect(response?.status).toBe(401);
    const entries = await waitForDeliveries(relay, webhook.uid, malformed.length + 1);
    for (const entry of entries) {
      expect(entry.label).toBe('Rejected (auth)');
      expect(entry.reason).toMatch(/timestamp|t=/);
    }
  });

  describe('with Standard Webhooks', () => {
    async function standardWebhook() {
      const created = await relay.createWebhook({
        name: 'standard',
        authMode: 'signature',
        signatureScheme: 'standard-webhooks',
      });
      const key = Buffer.from(created.secret!.slice('whsec_'.length), 'base64');
      const headersFor = (id: string, timestamp: string) => ({
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${BODY}`).digest('base64')}`,
      });
      return { ...created, headersFor };
    }

    it('accepts a delivery signed with sign() and one signed by hand the same way', async () => {
      const { ingressUrl, secret, headersFor } = await standardWebhook();
      const signed = getSignatureScheme('standard-webhooks').sign({
        body: Buffer.from(BODY),
        secret: secret!,
        timestamp: nowSeconds(),
        id: 'msg_1',
        options: null,
      });
      expect((await postDelivery(ingressUrl, BODY, signed)).status).toBe(202);
      expect(
        (await postDelivery(ingressUrl, BODY, headersFor('msg_2', String(nowSeconds())))).status,
      ).toBe(202);
    });

    it('refuses timestamps that are not 1–10 digits with 401', async () => {
      const { ingressUrl, headersFor, webhook } = await standardWebhook();
      const now = String(nowSeconds());
      const malformed = [`+${now}`, `${now}.5`, `0${now}`, `${now}0`, '0x6553F100', '1e9'];
      for (const [i, t] of malformed.entries()) {
        const sent = await postDelivery(ingressUrl, BODY, headersFor(`msg_${i}`, t));
        expect(sent.status, t).toBe(401);
      }
      const entries = await waitForDeliveries(relay, webhook.uid, malformed.length);
      expect(entries.every((e) => e.reason?.includes('webhook-timestamp'))).toBe(true);
    });

    it('refuses a repeated webhook-signature header with 401', async () => {
      const { webhook, headersFor } = await standardWebhook();
      const headers = headersFor('msg_r', String(nowSeconds()));
      const [response] = await exchangeRaw(relay.ingressUrl, [
        requestHead('POST', `/webhooks/w/${webhook.uid}`, relay.ingressUrl, [
          ['webhook-id', headers['webhook-id']],
          ['webhook-timestamp', headers['webhook-timestamp']],
          ['webhook-signature', headers['webhook-signature']],
          ['webhook-signature', headers['webhook-signature']],
          ['Content-Length', String(BODY.length)],
          ['Connection', 'close'],
        ]) + BODY,
      ]);
      expect(response?.status).toBe(401);
    });

    it('refuses an unsigned request with 401', async () => {
      const { ingressUrl } = await standardWebhook();
      expect((await postDelivery(ingressUrl, BODY)).status).toBe(401);
    });
  });
});
