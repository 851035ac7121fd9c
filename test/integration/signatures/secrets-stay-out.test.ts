import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { createSignatureWebhook, post } from './support/relay-calls.js';
import { genuineDelivery, SENDERS } from './support/senders.js';

describe('signing secrets never reach the log', () => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startTestRelay();
  });
  afterAll(() => relay.stop());

  it('for every scheme, after genuine, forged and malformed deliveries', async () => {
    const logs: string[] = [];
    for (const sender of SENDERS) {
      const { webhook, ingressUrl } = await createSignatureWebhook(relay, sender);
      const genuine = genuineDelivery(sender);
      const forged = genuineDelivery(sender, { secret: sender.otherSecret });
      await post(ingressUrl, genuine.body, genuine.headers);
      await post(ingressUrl, forged.body, forged.headers);
      for (const { header, value } of sender.malformed) {
        await post(ingressUrl, genuine.body, { ...genuine.headers, [header]: value });
      }
      // Raw: every byte of the answer is searched, not only the fields the contract names.
      const page = await relay.api('GET', `/api/webhooks/${webhook.uid}/deliveries?limit=50`);
      logs.push(JSON.stringify(page.body));
    }
    logs.push(...relay.logs);

    expect(logs.join('\n')).toMatch(/Rejected \(auth\)/);
    for (const sender of SENDERS) {
      for (const secret of [sender.secret, sender.otherSecret]) {
        expect(logs.join('\n'), sender.scheme).not.toContain(secret);
      }
    }
  });
});
