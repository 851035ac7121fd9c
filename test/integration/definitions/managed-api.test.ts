import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFixture, createFixtureSecrets, sync } from '../../support/definitions.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

describe('the management API on a managed factory', () => {
  let relay: TestRelay;
  let dir: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
  });
  afterEach(() => relay.stop());

  const byName = async (name: string) =>
    (await relay.call('webhooks.list', {})).items.find((w) => w.name === name);

  it('creates a webhook by writing its file, with a team secret that exists and no value shown', async () => {
    const created = await relay.call('webhooks.create', {
      name: 'deploys',
      secretName: 'nightly-token',
      deliveryIdHeader: 'X-Deploy-Id',
    });
    expect(created.secret).toBeNull();
    expect(readFileSync(join(dir, 'webhooks/deploys.yaml'), 'utf8')).toBe(
      'authMode: token\nsecretName: nightly-token\ndeliveryIdHeader: X-Deploy-Id\n',
    );
    expect((await sync(relay)).body.items.find((i) => i.name === 'deploys')).toMatchObject({
      action: 'unchanged',
      id: created.webhook.uid,
    });
  });

  it('leaves no file behind when the definition it would write is refused', async () => {
    const refused = await relay.callError('webhooks.create', {
      name: 'orphan',
      secretName: 'no-such-secret',
    });
    expect(refused).toMatchObject({
      code: 'invalid_input',
      path: 'webhooks/orphan.yaml:2:secretName',
    });
    expect(existsSync(join(dir, 'webhooks/orphan.yaml'))).toBe(false);
    const withValue = await relay.callError('webhooks.create', {
      name: 'inline',
      secret: 'x'.repeat(20),
    });
    expect(withValue).toMatchObject({ code: 'invalid_input', path: 'secret' });
  });

  it("edits the file to enable, disable or change the header, keeping the operator's comments", async () => {
    const path = join(dir, 'webhooks/github-prod.yaml');
    const original = readFileSync(path, 'utf8');
    const uid = (await byName('github-prod'))!.uid;
    const updated = await relay.call('webhooks.update', {
      uid,
      enabled: false,
      deliveryIdHeader: 'X-GitHub-Delivery',
    });
    expect(updated).toMatchObject({
      uid,
      enabled: false,
      deliveryIdHeader: 'X-GitHub-Delivery',
    });
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(original.split('\n')[0]!)).toBe(true);
    expect(text).toContain('enabled: false');
    expect(text).toContain('deliveryIdHeader: X-GitHub-Delivery');
  });

  it('deletes by removing the file', async () => {
    const uid = (await byName('nightly'))!.uid;
    await relay.call('webhooks.delete', { uid });
    expect(existsSync(join(dir, 'webhooks/nightly.yaml'))).toBe(false);
    expect(await byName('nightly')).toBeUndefined();
  });

  it('refuses rename and rotation, pointing at the file and the managed secret', async () => {
    const uid = (await byName('nightly'))!.uid;
    const renamed = await relay.callError('webhooks.update', { uid, name: 'cron' });
    expect(renamed).toMatchObject({
      code: 'conflict',
      path: 'name',
      message:
        'name: webhooks of a managed factory cannot be renamed; rename webhooks/nightly.yaml instead (a rename is a delete plus a create: the webhook gets a new UID)',
    });
    const rotated = await relay.callError('webhooks.rotate', { uid });
    expect(rotated).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('rotate the team secret "nightly-token"') as unknown,
    });
  });

  it('refuses automation writes, naming the file to edit', async () => {
    const refused = await relay.callError('automations.create', {
      name: 'triage',
      prompt: 'Triage.',
      triggers: [],
    });
    expect(refused).toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('automations/triage.md') as unknown,
    });
  });

  it('keeps the file if the operator edits it by hand between API writes', async () => {
    writeFileSync(join(dir, 'webhooks/nightly.yaml'), '# by hand\nsecretName: nightly-token\n');
    await sync(relay);
    const uid = (await byName('nightly'))!.uid;
    await relay.call('webhooks.update', { uid, enabled: false });
    expect(readFileSync(join(dir, 'webhooks/nightly.yaml'), 'utf8')).toBe(
      '# by hand\nsecretName: nightly-token\nenabled: false\n',
    );
  });
});
