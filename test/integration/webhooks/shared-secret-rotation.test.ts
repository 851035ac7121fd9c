import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSignatureScheme } from '../../../src/main/ingress/schemes/index.js';
import { postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

describe('rotating a secret that several webhooks share', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('refuses a value that one of the sharing webhooks could not use, and changes nothing', async () => {
    const svix = await relay.createWebhook({
      name: 'svix',
      authMode: 'signature',
      signatureScheme: 'standard-webhooks',
      secretName: 'shared-signing',
    });
    const github = await relay.createWebhook({
      name: 'github',
      authMode: 'signature',
      signatureScheme: 'github',
      secretName: 'shared-signing',
    });
    expect(github.secret).toBeNull();

    const rotated = await relay.callError('webhooks.rotate', {
      uid: github.webhook.uid,
      secret: 'plain text, not base64!',
    });
    expect(rotated).toMatchObject({
      code: 'invalid_input',
      path: 'secret',
      message: expect.stringContaining('standard-webhooks') as unknown,
    });

    // The original value still authenticates the Standard Webhooks sender.
    const body = Buffer.from('{"type":"ping"}');
    const headers = getSignatureScheme('standard-webhooks').sign({
      body,
      secret: svix.secret!,
      timestamp: Math.floor(Date.now() / 1000),
      id: 'msg_1',
      options: null,
    });
    expect((await postDelivery(svix.ingressUrl, body, headers)).status).toBe(202);
  });
});
