import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  automationFile,
  copyFixture,
  createFixtureSecrets,
  sync,
  syncEdited,
  writeDefinition,
} from '../../support/definitions.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

type Webhook = {
  uid: string;
  name: string;
  enabled: boolean;
  ingressUrl: string;
  authMode: string;
};

describe('applying a definition directory', () => {
  let relay: TestRelay;
  let dir: string;
  let secrets: Record<string, string>;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    secrets = await createFixtureSecrets(relay);
  });
  afterEach(() => relay.stop());

  const webhooks = async (): Promise<Webhook[]> =>
    (await relay.api<{ items: Webhook[] }>('GET', '/api/webhooks')).body.items;
  const uidOf = async (name: string): Promise<string> =>
    (await webhooks()).find((w) => w.name === name)!.uid;

  it('creates what the files define, and a second apply changes nothing', async () => {
    const first = await sync(relay, { dir });
    expect(first.status).toBe(200);
    expect(first.body.items.map((i) => [i.name, i.action])).toEqual([
      ['github-prod', 'create'],
      ['nightly', 'create'],
      ['partner', 'create'],
    ]);
    expect(first.body.ignored).toEqual([]);
    const created = (await webhooks()).sort((a, b) => a.name.localeCompare(b.name));
    expect(created.map((w) => [w.name, w.authMode, w.enabled])).toEqual([
      ['github-prod', 'signature', true],
      ['nightly', 'token', true],
      ['partner', 'url_token', false],
    ]);
    const second = await sync(relay);
    expect(second.body.items.every((i) => i.action === 'unchanged')).toBe(true);
    expect(second.body.items.map((i) => i.id)).toEqual(created.map((w) => w.uid));
    const factories = await relay.api<{
      items: Array<{ managed: boolean; definitionsDir: string }>;
    }>('GET', '/api/factories');
    expect(factories.body.items[0]).toMatchObject({ managed: true, definitionsDir: dir });
  });

  it('updates a changed file in place, keeping its UID', async () => {
    await sync(relay, { dir });
    const uid = await uidOf('nightly');
    const result = await syncEdited(relay, dir, (copy) =>
      writeFileSync(
        join(copy, 'webhooks/nightly.yaml'),
        'authMode: token\nsecretName: nightly-token\nenabled: false\n',
      ),
    );
    expect(result.body.items.find((i) => i.name === 'nightly')).toMatchObject({
      action: 'update',
      id: uid,
      changes: ['deliveryIdHeader', 'enabled'],
    });
    expect((await webhooks()).find((w) => w.name === 'nightly')).toMatchObject({
      uid,
      enabled: false,
    });
  });

  it('deletes the webhook of a deleted file: its senders get 404 at once', async () => {
    await sync(relay, { dir });
    const nightly = (await webhooks()).find((w) => w.name === 'nightly')!;
    expect(
      (await postDelivery(nightly.ingressUrl, '{}', bearer(secrets['nightly-token']!))).status,
    ).toBe(202);
    const result = await syncEdited(relay, dir, (copy) =>
      rmSync(join(copy, 'webhooks/nightly.yaml')),
    );
    expect(result.body.items.find((i) => i.name === 'nightly')).toMatchObject({
      action: 'delete',
      id: nightly.uid,
      note: 'its file is gone; its URL answers 404 at once',
    });
    expect(
      (await postDelivery(nightly.ingressUrl, '{}', bearer(secrets['nightly-token']!))).status,
    ).toBe(404);
  });

  it('treats a renamed file as a delete plus a create, and says so', async () => {
    await sync(relay, { dir });
    const before = await uidOf('nightly');
    const result = await syncEdited(relay, dir, (copy) =>
      renameSync(join(copy, 'webhooks/nightly.yaml'), join(copy, 'webhooks/cron.yaml')),
    );
    const deleted = result.body.items.find((i) => i.name === 'nightly')!;
    const created = result.body.items.find((i) => i.name === 'cron')!;
    expect(deleted).toMatchObject({ action: 'delete', id: before });
    expect(deleted.note).toContain('looks renamed to webhooks/cron.yaml');
    expect(created.action).toBe('create');
    expect(created.id).toMatch(/^wh_/);
    expect(created.id).not.toBe(before);
  });

  it('creates, updates and deletes automations from their files, naming webhooks by UID', async () => {
    await sync(relay, { dir });
    const gh = await uidOf('github-prod');
    const created = await syncEdited(relay, dir, (copy) =>
      writeDefinition(
        copy,
        'automations/triage.md',
        automationFile([gh], 'Label the pull request.'),
      ),
    );
    expect(created.body.items.find((i) => i.name === 'triage')?.action).toBe('create');
    type Automation = {
      name: string;
      prompt: string;
      sourceFile: string;
      triggers: Array<{ filter: { webhook_ids: string[] } }>;
    };
    const listed = (await relay.api<{ items: Automation[] }>('GET', '/api/automations')).body.items;
    expect(listed).toEqual([
      expect.objectContaining({
        name: 'triage',
        prompt: 'Label the pull request.',
        sourceFile: 'automations/triage.md',
      }),
    ]);
    const updated = await syncEdited(relay, created.dir, (copy) =>
      writeDefinition(
        copy,
        'automations/triage.md',
        automationFile([gh], 'Label it and ask for a review.'),
      ),
    );
    expect(updated.body.items.find((i) => i.name === 'triage')).toMatchObject({
      action: 'update',
      changes: ['prompt'],
    });
    const deleted = await syncEdited(relay, updated.dir, (copy) =>
      rmSync(join(copy, 'automations/triage.md')),
    );
    expect(deleted.body.items.find((i) => i.name === 'triage')?.action).toBe('delete');
    expect((await relay.api<{ items: unknown[] }>('GET', '/api/automations')).body.items).toEqual(
      [],
    );
  });

  it('says that a webhook made before the factory was managed is dropped for having no file', async () => {
    const { webhook } = await relay.createWebhook({ name: 'made-by-hand' });
    const planned = await sync(relay, { dir, dryRun: true });
    expect(planned.body.items.find((i) => i.name === 'made-by-hand')).toMatchObject({
      action: 'delete',
      file: null,
      id: webhook.uid,
      note: 'not defined in the directory, so the managed factory drops it; its URL answers 404 at once',
    });
  });

  it('plans without applying on a dry run', async () => {
    const planned = await sync(relay, { dir, dryRun: true });
    expect(planned.body.applied).toBe(false);
    expect(planned.body.items).toHaveLength(3);
    expect(await webhooks()).toEqual([]);
  });

  it('lists files in the definition folders that are not definitions, and leaves them alone', async () => {
    writeDefinition(dir, 'webhooks/notes.txt', 'not a definition');
    expect((await sync(relay, { dir })).body.ignored).toEqual(['webhooks/notes.txt']);
  });
});
