import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { getDelivery, listDeliveries } from '../../support/deliveries.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  type CreatedWebhook,
  type TestRelay,
} from '../../support/relay.js';

describe('POST /api/deliveries/replay: replay a selection', () => {
  let relay: TestRelay;
  let hook: CreatedWebhook;
  beforeEach(async () => {
    relay = await startTestRelay();
    hook = await relay.createWebhook({ name: 'shop' });
  });
  afterEach(() => relay.stop());

  const send = async (body: string): Promise<string> =>
    (await postDelivery(hook.ingressUrl, body, bearer(hook.secret))).body.delivery_id!;

  it('replays each delivery through today’s automations, in the order given', async () => {
    const ids = [await send('{"n":1}'), await send('{"n":2}'), await send('{"n":3}')];
    await createAutomation(relay, {
      name: 'count',
      triggers: [webhookTrigger([hook.webhook.uid])],
    });
    const chosen = [ids[2]!, ids[0]!];
    const response = await relay.call('deliveries.replayMany', { ids: chosen });
    expect(response.items.map((i) => i.id)).toEqual(chosen);
    const fresh = response.items.map((i) => i.delivery_id);
    expect([...fresh].sort()).toEqual(fresh);
    for (const [index, item] of response.items.entries()) {
      expect(item.runs).toHaveLength(1);
      const entry = await getDelivery(relay, item.delivery_id);
      expect(entry).toMatchObject({ label: 'Accepted', replayOf: chosen[index] });
      expect(entry.payload).toBe((await getDelivery(relay, chosen[index]!)).payload);
    }
  });

  it('replays nothing when one of them cannot be, naming it', async () => {
    const first = await send('{"n":1}');
    const duplicate = await send('{"n":1}');
    const before = (await listDeliveries(relay, hook.webhook.uid)).items.length;
    const refused = await relay.callError('deliveries.replayMany', { ids: [first, duplicate] });
    expect(refused).toMatchObject({ code: 'conflict', path: 'ids.1' });
    expect(refused.message).toBe(
      `Nothing was replayed: ${duplicate} is "Duplicate": only Accepted deliveries keep a payload; use the original, ${first}. Leave it out and try again.`,
    );
    expect((await listDeliveries(relay, hook.webhook.uid)).items).toHaveLength(before);
  });

  it('takes 1 to 500 distinct IDs', async () => {
    const one = await send('{"n":1}');
    const cases: Array<[unknown, string]> = [
      [[], 'ids: must name at least one delivery'],
      [Array.from({ length: 501 }, () => one), 'ids: at most 500 deliveries at a time'],
      [[one, one], 'ids: must not name a delivery twice'],
      [['dlv_nope'], 'ids.0: must be a delivery ID'],
    ];
    for (const [ids, message] of cases) {
      const refused = await relay.callError('deliveries.replayMany', { ids });
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).toContain(message);
    }
  });
});
