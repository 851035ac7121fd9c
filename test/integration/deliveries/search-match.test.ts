import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentAround } from '../../../src/main/service/search-fragments.js';
import {
  createAutomation,
  listRuns,
  waitForRun,
  webhookTrigger,
} from '../../support/automations.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

describe('why a search result matched, and a run’s event type', () => {
  let relay: TestRelay;
  let uid: string;
  let deep = '';
  let shown = '';

  const search = async (q: string) => (await relay.call('deliveries.list', { uid, q })).items;

  beforeAll(async () => {
    relay = await startTestRelay();
    const hook = await relay.createWebhook({ name: 'jobs', eventTypePath: 'event' });
    uid = hook.webhook.uid;
    await createAutomation(relay, { name: 'watch', triggers: [webhookTrigger([uid])] });
    const send = async (body: unknown, headers: Record<string, string> = {}): Promise<string> => {
      const sent = await postDelivery(hook.ingressUrl, JSON.stringify(body), {
        ...bearer(hook.secret),
        ...headers,
      });
      expect(sent.status).toBe(202);
      return sent.body.delivery_id!;
    };
    // In an array, so never in the summary: only the payload shows why it matched.
    deep = await send({ event: 'deploy.finished', log: ['built', 'released by Dana Sokolova'] });
    shown = await send({ event: 'deploy.started', env: 'sokolova-lab' });
    await send({ event: 'deploy.noted' }, { 'X-Service-Delivery-Id': 'job-sokolova-7' });
  });
  afterAll(() => relay.stop());

  it('names the payload text or the identity where the row does not show the match', async () => {
    const items = await search('SOKOLOVA');
    expect(items).toHaveLength(3);
    const byId = new Map(items.map((item) => [item.id, item]));
    expect(byId.get(deep)?.match).toBe('…d","log":["built","released by Dana Sokolova"]}');
    // The summary holds it: the row marks it there, no fragment is needed.
    expect(byId.get(shown)?.summary).toContain('sokolova-lab');
    expect(byId.get(shown)?.match).toBeUndefined();
    const byIdentity = items.find((item) => item.identity === 'job-sokolova-7');
    expect(byIdentity?.match).toBe('identity job-sokolova-7');
    // Without a search, no entry carries one.
    const plain = await relay.call('deliveries.list', { uid });
    expect(plain.items.every((item) => item.match === undefined)).toBe(true);
  });

  it('cuts a long payload around the match, on one line', () => {
    const text = `${'a'.repeat(100)}\n  needle\n${'b'.repeat(100)}`;
    expect(fragmentAround(text, 'NEEDLE')).toBe(`…${'a'.repeat(33)} needle ${'b'.repeat(35)}…`);
    expect(fragmentAround('short', 'none')).toBeNull();
  });

  it('gives each run its delivery’s event type', async () => {
    const runs = await listRuns(relay);
    expect(runs.items).toHaveLength(3);
    for (const run of runs.items) await waitForRun(relay, run.id);
    expect(runs.items.map((run) => run.eventType).sort()).toEqual([
      'deploy.finished',
      'deploy.noted',
      'deploy.started',
    ]);
  });
});
