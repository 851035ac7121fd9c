import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';
import { storeConfig, storeKinds } from '../../support/stores.js';

/** PRODUCT §3/§12: one log line per delivery, naming the webhook by UID; no secret or URL token, ever. */
describe.each(storeKinds)('the relay log (%s)', (storeKind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay(storeConfig(storeKind));
  });
  afterEach(() => relay.stop());

  it('has a line for each delivery and no secret, URL token or tried credential', async () => {
    const token = await relay.createWebhook({ name: 'bearer' });
    const url = await relay.createWebhook({ name: 'url', authMode: 'url_token' });
    const tried = ['tried-bearer-credential-0001', 'triedUrlCredential-000000002'];
    const ids = [
      (await postDelivery(token.ingressUrl, '{"n":1}', bearer(token.secret))).body.delivery_id,
      (await postDelivery(token.ingressUrl, '{"n":1}', bearer(token.secret))).body.delivery_id,
      (await postDelivery(token.ingressUrl, '{"n":2}', bearer(tried[0]!))).body.delivery_id,
      (await postDelivery(url.ingressUrl, '{"n":3}')).body.delivery_id,
      (await postDelivery(`${relay.ingressUrl}/webhooks/w/${url.webhook.uid}/${tried[1]}`, '{}'))
        .body.delivery_id,
      (await postDelivery(url.ingressUrl, 'not json')).body.delivery_id,
    ];
    await postDelivery(
      `${relay.ingressUrl}/webhooks/w/${url.webhook.uid}/${url.secret}/extra`,
      '{}',
    );

    const ingressLines = relay.logs.filter((l) => l.startsWith('[ingress]'));
    for (const id of ids.filter(Boolean)) {
      // A 202 line reads `[ingress] 202 <label> <uid> <delivery id> ...`.
      expect(
        ingressLines.filter((l) => l.split(' ')[4] === id),
        id,
      ).toHaveLength(1);
    }
    expect(ingressLines.filter((l) => l.includes(' 401 '))).toHaveLength(2);

    const everything = relay.logs.join('\n');
    for (const secret of [token.secret!, url.secret!, relay.adminToken, ...tried]) {
      expect(everything).not.toContain(secret);
    }
  });
});
