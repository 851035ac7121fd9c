import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listDeliveries } from '../../support/deliveries.js';
import { bearer, postDelivery, tempDir, type TestRelay } from '../../support/relay.js';
import { startClockedRelay } from '../../support/clocked-relay.js';
import { waitFor } from '../../support/wait.js';
import { storeKinds } from '../../support/stores.js';

const DAY_MS = 24 * 60 * 60_000;
const START = Date.parse('2026-01-01T00:00:00Z');

/** PRODUCT §9: retention is configurable upward only; raised limits hold across restarts. */
describe.each(storeKinds)('retention settings (%s)', (storeKind) => {
  let relay: TestRelay | null = null;
  const dataDir = tempDir();
  let clock = START;
  afterEach(async () => {
    await relay?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (at: number): Promise<TestRelay> => {
    clock = at;
    relay = await startClockedRelay(storeKind, dataDir, () => clock);
    return relay;
  };

  it('refuses values below 7 days or 50 per webhook, naming the field', async () => {
    await start(START);
    for (const [field, value] of [
      ['retentionDays', 6],
      ['retentionMinPerWebhook', 49],
      ['retentionDays', 0],
      ['retentionMinPerWebhook', -1],
    ] as const) {
      const refused = await relay!.callError('settings.update', { [field]: value });
      expect(refused, `${field}=${value}`).toMatchObject({ code: 'invalid_input', path: field });
    }
    expect(await relay!.call('settings.get', {})).toMatchObject({
      retentionDays: 7,
      retentionMinPerWebhook: 50,
    });
  });

  it('keeps more once raised: 30 days, then the newest 60', async () => {
    await start(START);
    const raised = await relay!.call('settings.update', {
      retentionDays: 30,
      retentionMinPerWebhook: 60,
    });
    expect(raised).toMatchObject({ retentionDays: 30, retentionMinPerWebhook: 60 });
    const hook = await relay!.createWebhook({ name: 'kept-longer' });
    for (let i = 0; i < 70; i++) {
      const sent = await postDelivery(hook.ingressUrl, `{"n":${i}}`, bearer(hook.secret));
      expect(sent.status).toBe(202);
      clock += 2_000;
    }
    await relay!.stop();

    // Nine days on: the default would prune 20; 30 days keeps everything.
    await start(START + 9 * DAY_MS);
    expect(await relay!.call('settings.get', {})).toMatchObject({
      retentionDays: 30,
      retentionMinPerWebhook: 60,
    });
    expect((await listDeliveries(relay!, hook.webhook.uid, { limit: 500 })).items).toHaveLength(70);
    expect(relay!.logs.some((l) => l.startsWith('[retention] pruned'))).toBe(false);
    await relay!.stop();

    // Thirty-one days on: all are older than 30 days; the newest 60 stay.
    await start(START + 31 * DAY_MS);
    await waitFor(
      () => relay!.logs.find((l) => l === '[retention] pruned 10 deliveries'),
      'the prune at start',
    );
    const kept = (await listDeliveries(relay!, hook.webhook.uid, { limit: 500 })).items;
    expect(kept).toHaveLength(60);
    expect(kept.at(-1)).toMatchObject({ size: Buffer.byteLength('{"n":10}') });
  });
});
