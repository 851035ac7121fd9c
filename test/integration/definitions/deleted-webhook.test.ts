import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  automationFile,
  copyFixture,
  createFixtureSecrets,
  sync,
  writeDefinition,
} from '../../support/definitions.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { runCli } from '../../support/run-hookport.js';

/**
 * Seed §3 on a managed factory: deleting a webhook's file deletes the webhook, and the
 * automations that select it stay visible but stop firing, named in the plan and the output.
 */
describe('a managed factory deleting a webhook that automations still select', () => {
  let relay: TestRelay;
  let dir: string;
  let ghUid: string;
  let nightlyUid: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
    const webhooks = (await relay.call('webhooks.list', {})).items;
    ghUid = webhooks.find((w) => w.name === 'github-prod')!.uid;
    nightlyUid = webhooks.find((w) => w.name === 'nightly')!.uid;
    writeDefinition(dir, 'automations/triage.md', automationFile([ghUid]));
    writeDefinition(dir, 'automations/both.md', automationFile([ghUid, nightlyUid]));
    expect((await sync(relay)).status).toBe(200);
  });
  afterEach(() => relay.stop());

  /**
   * The directory without github-prod's file, as a copy: the watched directory would apply a
   * removal by itself within moments, before a dry run could show the plan.
   */
  function withoutGithubProd(): string {
    const edited = `${dir}-edited`;
    cpSync(dir, edited, { recursive: true });
    rmSync(join(edited, 'webhooks/github-prod.yaml'));
    return edited;
  }

  it('applies, warns by name which automations stop firing, and keeps them with a warning', async () => {
    const edited = withoutGithubProd();

    const planned = await relay.call('factories.sync', {
      id: 'default',
      dir: edited,
      dryRun: true,
    });
    const deletion = planned.items.find((i) => i.name === 'github-prod')!;
    expect(deletion).toMatchObject({ action: 'delete', id: ghUid });
    expect(deletion.note).toContain('automations "both", "triage" will stop firing for it');
    expect(planned.warnings).toEqual([
      `automation "both" (automations/both.md) will stop firing for webhook "github-prod" (${ghUid}): this apply deletes it; point the trigger at another webhook or remove it`,
      `automation "triage" (automations/triage.md) will stop firing for webhook "github-prod" (${ghUid}): this apply deletes it; point the trigger at another webhook or remove it`,
    ]);

    const applied = await sync(relay, { dir: edited });
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toBe(true);
    const automations = (await relay.call('automations.list', {})).items;
    expect(automations.find((a) => a.name === 'triage')).toMatchObject({
      deletedWebhookUids: [ghUid],
      warnings: [expect.stringContaining('points at a deleted webhook') as unknown],
    });
    expect(
      (await relay.callError('webhooks.get', { uid: ghUid })).code,
      'the deleted webhook is gone',
    ).toBe('not_found');

    // The next sync of the same files keeps applying: the automation names a deleted webhook.
    const again = await relay.call('factories.sync', { id: 'default' });
    expect(again.warnings).toContain(
      `automation "triage" (automations/triage.md) points at webhook "github-prod" (${ghUid}), which was deleted: it does not fire for it`,
    );
  });

  it('prints the warnings in hookport apply', async () => {
    const run = await runCli(
      ['apply', withoutGithubProd(), '--dry-run', '--admin-url', relay.adminUrl],
      {
        HOOKPORT_ADMIN_TOKEN: relay.adminToken,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `warning: automation "triage" (automations/triage.md) will stop firing for webhook "github-prod" (${ghUid})`,
    );
  });

  it('lets the API delete a webhook file that an automation selects', async () => {
    await relay.call('webhooks.delete', { uid: ghUid });
    const triage = (await relay.call('automations.list', {})).items.find(
      (a) => a.name === 'triage',
    );
    expect(triage?.deletedWebhookUids).toEqual([ghUid]);
  });
});
