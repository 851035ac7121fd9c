import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

describe('an ingress path sent to the admin listener', () => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startTestRelay();
  });
  afterEach(() => relay.stop());

  it('is 404 whatever the content type, and records nothing', async () => {
    const { webhook } = await relay.createWebhook({ name: 'only-on-ingress' });
    for (const type of ['text/plain', 'application/json']) {
      const sent = await relay.api('POST', `/webhooks/w/${webhook.uid}`, '{}', {
        headers: { 'content-type': type },
      });
      expect(sent.status, type).toBe(404);
    }
    const log = await relay.api<{ items: unknown[] }>(
      'GET',
      `/api/webhooks/${webhook.uid}/deliveries`,
    );
    expect(log.body.items).toEqual([]);
  });
});
