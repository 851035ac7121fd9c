import { writeFileSync } from 'node:fs';
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

describe('a refused definition', () => {
  let relay: TestRelay;
  let dir: string;
  let before: string;
  let ghUid: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
    ghUid = (await relay.call('webhooks.list', {})).items.find(
      (w) => w.name === 'github-prod',
    )!.uid;
    writeDefinition(dir, 'automations/triage.md', automationFile([ghUid]));
    await sync(relay);
    before = await snapshot();
  });
  afterEach(() => relay.stop());

  /** Everything a refused apply must leave exactly as it was. */
  async function snapshot(): Promise<string> {
    const [webhooks, automations] = await Promise.all([
      relay.call('webhooks.list', {}),
      relay.call('automations.list', {}),
    ]);
    return JSON.stringify([webhooks, automations]).replace(/"runs24h":\d+/g, '');
  }

  async function expectRefused(message: string, path: string): Promise<void> {
    const refused = await sync(relay);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ code: 'invalid_input', message, path });
    expect(await snapshot()).toBe(before);
  }

  it('names a secretName that is not a team secret', async () => {
    writeFileSync(
      join(dir, 'webhooks/nightly.yaml'),
      'authMode: token\n\nsecretName: never-created\n',
    );
    await expectRefused(
      'webhooks/nightly.yaml:3: secretName: no team secret named "never-created"; create it first (POST /api/secrets)',
      'webhooks/nightly.yaml:3:secretName',
    );
  });

  it('refuses a url_token whose secret is not URL-safe', async () => {
    await relay.call('secrets.create', { name: 'spaced', value: 'not url safe at all' });
    writeFileSync(join(dir, 'webhooks/partner.yaml'), 'authMode: url_token\nsecretName: spaced\n');
    await expectRefused(
      'webhooks/partner.yaml:2: secretName: "spaced" is not URL-safe, so it cannot be a url_token (16+ of A–Z a–z 0–9 . _ ~ -)',
      'webhooks/partner.yaml:2:secretName',
    );
  });

  it('refuses an unknown key, pointing at its line', async () => {
    writeFileSync(
      join(dir, 'webhooks/nightly.yaml'),
      'authMode: token\nsecretName: nightly-token\nretries: 3\n',
    );
    await expectRefused(
      'webhooks/nightly.yaml:3: retries: unknown key',
      'webhooks/nightly.yaml:3:retries',
    );
  });

  it('refuses a trigger naming a UID that does not exist', async () => {
    const unknown = `wh_${'z'.repeat(24)}`;
    writeDefinition(dir, 'automations/triage.md', automationFile([ghUid, unknown]));
    await expectRefused(
      `automations/triage.md:6: triggers.0.filter.webhook_ids.1: no webhook ${unknown} in factory "default" (webhooks are named by UID; a new webhook's UID exists once its file has applied)`,
      'automations/triage.md:6:triggers.0.filter.webhook_ids.1',
    );
  });

  it('refuses a header filter on a credential header, naming file, line and key', async () => {
    writeDefinition(
      dir,
      'automations/triage.md',
      automationFile([ghUid]).replace(
        '      webhook_ids:',
        '      headers:\n        X-Hub-Signature-256: { exists: true }\n      webhook_ids:',
      ),
    );
    await expectRefused(
      'automations/triage.md:7: triggers.0.filter.headers.X-Hub-Signature-256: X-Hub-Signature-256 carries a credential: its value is stored as [redacted], so it cannot be filtered on',
      'automations/triage.md:7:triggers.0.filter.headers.X-Hub-Signature-256',
    );
  });

  it('refuses more than 20 webhooks', async () => {
    for (let i = 1; i <= 18; i++)
      writeDefinition(dir, `webhooks/extra-${i}.yaml`, 'secretName: nightly-token\n');
    await expectRefused(
      'webhooks/: defines 21 webhooks; a factory may have at most 20',
      'webhooks/',
    );
  });

  it('reports YAML syntax errors and invalid values with their lines, all at once', async () => {
    writeFileSync(join(dir, 'webhooks/nightly.yaml'), 'authMode: token\nsecretName: [unclosed\n');
    writeFileSync(
      join(dir, 'webhooks/partner.yaml'),
      'authMode: url_tokens\nsecretName: partner-url\n',
    );
    const refused = await sync(relay);
    expect(refused.status).toBe(400);
    const lines = refused.body.error!.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^webhooks\/nightly\.yaml:\d+: /);
    expect(lines[1]).toBe(
      'webhooks/partner.yaml:1: authMode: must be one of: token, url_token, signature',
    );
    expect(await snapshot()).toBe(before);
  });

  it('refuses a YAML alias with no anchor, and an alias bomb, as a 400 naming the line', async () => {
    writeFileSync(join(dir, 'webhooks/nightly.yaml'), 'authMode: token\nsecretName: *name\n');
    await expectRefused(
      'webhooks/nightly.yaml:2: Unresolved alias (the anchor must be set before the alias): name',
      'webhooks/nightly.yaml:2',
    );

    let bomb = 'a: &a [x, x, x, x, x, x, x, x, x]\n';
    for (const [previous, name] of ['ab', 'bc', 'cd', 'de', 'ef', 'fg', 'gh', 'hi']) {
      bomb += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]\n`;
    }
    writeFileSync(join(dir, 'webhooks/nightly.yaml'), bomb);
    await expectRefused(
      'webhooks/nightly.yaml:2: uses too many YAML aliases (*name); write the values out',
      'webhooks/nightly.yaml:2',
    );
  });

  it('refuses an automation file without front matter, or with an empty prompt or a bad filter', async () => {
    writeDefinition(dir, 'automations/triage.md', 'Just a prompt, no front matter.\n');
    await expectRefused(
      'automations/triage.md:1: must start with YAML front matter between two "---" lines',
      'automations/triage.md:1',
    );
    writeDefinition(dir, 'automations/triage.md', automationFile([ghUid], '   '));
    await expectRefused(
      'automations/triage.md:8: the prompt after the front matter must not be empty',
      'automations/triage.md:8',
    );
    writeDefinition(
      dir,
      'automations/triage.md',
      automationFile([ghUid]).replace(
        'filter:\n',
        'filter:\n      payload: {action: {in: open}}\n',
      ),
    );
    const refused = await sync(relay);
    expect(refused.body.error?.path).toBe(
      'automations/triage.md:6:triggers.0.filter.payload.action.in',
    );
  });
});
