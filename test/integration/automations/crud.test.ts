import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAutomation, webhookTrigger } from '../../support/automations.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

describe('automations over the management API', () => {
  let relay: TestRelay;
  let uid: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    uid = (await relay.createWebhook({ name: 'github-prod' })).webhook.uid;
  });
  afterEach(() => relay.stop());

  it('creates, lists, reads, updates and deletes an automation in the default factory', async () => {
    const created = await createAutomation(relay, {
      name: 'triage',
      prompt: 'Triage the new issue.',
      triggers: [webhookTrigger([uid], { action: ['opened'] })],
    });
    expect(created.id).toMatch(/^aut_[0-9A-Z]{26}$/);
    expect(created).toMatchObject({
      factory: 'default',
      name: 'triage',
      prompt: 'Triage the new issue.',
      enabled: true,
      webhooks: [{ uid, name: 'github-prod', deleted: false }],
      deletedWebhookUids: [],
      warnings: [],
      runs24h: 0,
    });

    const list = await relay.call('automations.list', {});
    expect(list.items.map((a) => a.name)).toEqual(['triage']);
    const sameFactory = await relay.call('automations.list', { factory: 'default' });
    expect(sameFactory.items).toHaveLength(1);

    const read = await relay.call('automations.get', { id: created.id });
    expect(read.triggers).toEqual([webhookTrigger([uid], { action: ['opened'] })]);

    const patched = await relay.call('automations.update', {
      id: created.id,
      enabled: false,
      prompt: 'Label the issue.',
    });
    expect(patched).toMatchObject({
      enabled: false,
      prompt: 'Label the issue.',
      name: 'triage',
    });

    const deleted = await relay.call('automations.delete', { id: created.id });
    expect(deleted).toEqual({ id: created.id, deleted: true });
    await expect(relay.call('automations.get', { id: created.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('refuses an invalid payload filter when saved, naming the path of the bad key', async () => {
    const response = await relay.callError('automations.create', {
      name: 'bad',
      prompt: 'x',
      triggers: [webhookTrigger([uid], { pull_request: { state: { in: 'open' } } })],
    });
    expect(response).toMatchObject({
      code: 'invalid_input',
      message: 'triggers.0.filter.payload.pull_request.state.in: expected an array of values',
      path: 'triggers.0.filter.payload.pull_request.state.in',
    });

    const onUpdate = await createAutomation(relay, {
      name: 'good',
      triggers: [webhookTrigger([uid])],
    });
    const patched = await relay.callError('automations.update', {
      id: onUpdate.id,
      triggers: [webhookTrigger([uid]), webhookTrigger([uid], { labels: { not_in: [] } })],
    });
    expect(patched.code).toBe('invalid_input');
    expect(patched.path).toBe('triggers.1.filter.payload.labels.not_in');
    expect(patched.message).toMatch(/empty list excludes nothing/);
  });

  it('refuses triggers that are not Webhook triggers, naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...webhookTrigger([uid]), provider: 'github' }, 'triggers.0.provider'],
      [{ ...webhookTrigger([uid]), event: 'sent' }, 'triggers.0.event'],
      [webhookTrigger([]), 'triggers.0.filter.webhook_ids'],
      [webhookTrigger(['github-prod']), 'triggers.0.filter.webhook_ids.0'],
      [{ ...webhookTrigger([uid]), extra: true }, 'triggers.0.extra'],
    ];
    for (const [trigger, path] of cases) {
      const response = await relay.callError('automations.create', {
        name: 'bad',
        prompt: 'x',
        triggers: [trigger],
      });
      expect(response.code, path).toBe('invalid_input');
      expect(response.path, JSON.stringify(trigger)).toBe(path);
    }
  });

  it('refuses a trigger naming a webhook UID that does not exist in the factory', async () => {
    const unknown = 'wh_000000000000000000000000';
    const response = await relay.callError('automations.create', {
      name: 'ghost',
      prompt: 'x',
      triggers: [webhookTrigger([uid, unknown])],
    });
    expect(response.code).toBe('invalid_input');
    expect(response).toMatchObject({
      path: 'triggers.0.filter.webhook_ids.1',
      message: `triggers.0.filter.webhook_ids.1: no webhook ${unknown} in factory "default"`,
    });
  });

  it('refuses a missing name or prompt, a duplicate name and an unknown factory', async () => {
    const noPrompt = await relay.callError('automations.create', {
      name: 'a',
      prompt: '   ',
      triggers: [],
    });
    expect(noPrompt).toMatchObject({
      path: 'prompt',
      message: 'prompt: must not be empty',
    });
    // PostgreSQL text cannot hold NUL: refused on every store alike, with the field named.
    const withNul = await relay.callError('automations.create', {
      name: 'nul',
      prompt: 'before\u0000after',
      triggers: [],
    });
    expect(withNul.code).toBe('invalid_input');
    expect(withNul).toMatchObject({
      path: 'prompt',
      message: 'prompt: must not contain a NUL character',
    });
    const badName = await relay.callError('automations.create', {
      name: '../etc',
      prompt: 'x',
      triggers: [],
    });
    expect(badName.path).toBe('name');

    await createAutomation(relay, { name: 'twice', triggers: [] });
    const again = await relay.callError('automations.create', {
      name: 'twice',
      prompt: 'x',
      triggers: [],
    });
    expect(again.code).toBe('conflict');
    expect(again.message).toBe('name: an automation named "twice" already exists');

    const elsewhere = await relay.callError('automations.list', { factory: 'nope' });
    expect(elsewhere.code).toBe('not_found');
  });

  it('flags an automation whose webhooks were all deleted; it stays visible and lists the deleted UIDs', async () => {
    const second = (await relay.createWebhook({ name: 'stripe' })).webhook.uid;
    const both = await createAutomation(relay, {
      name: 'both',
      triggers: [webhookTrigger([uid, second])],
    });
    const only = await createAutomation(relay, { name: 'only', triggers: [webhookTrigger([uid])] });

    await relay.call('webhooks.delete', { uid });

    const onlyNow = await relay.call('automations.get', { id: only.id });
    expect(onlyNow.deletedWebhookUids).toEqual([uid]);
    expect(onlyNow.webhooks).toEqual([{ uid, name: 'github-prod', deleted: true }]);
    expect(onlyNow.warnings).toHaveLength(1);
    expect(onlyNow.warnings[0]).toMatch(
      /^points at a deleted webhook \(wh_\w+\): it fires no more/,
    );

    const bothNow = await relay.call('automations.get', { id: both.id });
    expect(bothNow.deletedWebhookUids).toEqual([uid]);
    expect(bothNow.warnings[0]).toMatch(
      /points at a deleted webhook .*its other webhooks still fire/,
    );

    const list = await relay.call('automations.list', {});
    expect(list.items.map((a) => a.name).sort()).toEqual(['both', 'only']);

    // Saving it again with the deleted webhook is refused; pointing it elsewhere clears the flag.
    const keep = await relay.callError('automations.update', {
      id: only.id,
      triggers: [webhookTrigger([uid])],
    });
    expect(keep.message).toMatch(/was deleted; point the trigger at another webhook or remove it/);
    const moved = await relay.call('automations.update', {
      id: only.id,
      triggers: [webhookTrigger([second])],
    });
    expect(moved.warnings).toEqual([]);
  });

  it('lets a view token read automations but not change them', async () => {
    const { value: token } = await relay.call('tokens.create', { name: 'ro', role: 'view' });
    // The role check is the transport's: the view token's answers are read as HTTP.
    const automation = await createAutomation(relay, {
      name: 'seen',
      triggers: [webhookTrigger([uid])],
    });
    expect((await relay.api('GET', '/api/automations', undefined, { token })).status).toBe(200);
    const write = await relay.api(
      'PATCH',
      `/api/automations/${automation.id}`,
      { enabled: false },
      { token },
    );
    expect(write.status).toBe(403);
    expect(
      (await relay.api('DELETE', `/api/automations/${automation.id}`, undefined, { token })).status,
    ).toBe(403);
  });
});
