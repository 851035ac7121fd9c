import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

describe('a webhook without a provider link', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('answers GET …/link with the JSON null the contract names, not an empty body', async () => {
    const { webhook } = await relay.createWebhook({ name: 'plain' });

    const response = await fetch(`${relay.adminUrl}/api/webhooks/${webhook.uid}/link`, {
      headers: { authorization: `Bearer ${relay.adminToken}` },
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe('null');
    const read = await relay.call('webhooks.get', { uid: webhook.uid });
    expect(read.link).toBeNull();
  });
});
