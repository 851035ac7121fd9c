import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  automationFile,
  copyFixture,
  createFixtureSecrets,
  sync,
  writeDefinition,
} from '../../support/definitions.js';
import { getDelivery } from '../../support/deliveries.js';
import { bearer, postDelivery, startTestRelay, type TestRelay } from '../../support/relay.js';

/** Definition files carry a webhook's eventTypePath and a trigger's header filter (§13). */
describe('definition files: eventTypePath and header filters', () => {
  let relay: TestRelay;
  let dir: string;
  let nightlyToken: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    nightlyToken = (await createFixtureSecrets(relay))['nightly-token']!;
    writeDefinition(
      dir,
      'webhooks/nightly.yaml',
      'authMode: token\nsecretName: nightly-token\neventTypePath: header:X-Job-Event\n',
    );
    expect((await sync(relay, { dir })).status).toBe(200);
  });
  afterEach(() => relay.stop());

  const nightly = async () =>
    (await relay.call('webhooks.list', {})).items.find((w) => w.name === 'nightly')!;

  it('applies a header filter from an automation file, and the event type from the webhook file', async () => {
    const webhook = await nightly();
    expect(webhook.eventTypePath).toBe('header:X-Job-Event');
    writeDefinition(
      dir,
      'automations/backups.md',
      automationFile([webhook.uid], 'Check the backup.').replace(
        '      webhook_ids:',
        '      headers: { x-job-event: [backup] }\n      webhook_ids:',
      ),
    );
    const applied = await sync(relay);
    expect(applied.status).toBe(200);
    const [automation] = (await relay.call('automations.list', {})).items;
    expect(automation!.triggers[0]!.filter.headers).toEqual({ 'x-job-event': ['backup'] });

    const send = (event: string) =>
      postDelivery(webhook.ingressUrl, `{"at":"${event}"}`, {
        ...bearer(nightlyToken),
        'X-Job-Event': event,
      });
    const backup = await getDelivery(relay, (await send('backup')).body.delivery_id!);
    const restore = await getDelivery(relay, (await send('restore')).body.delivery_id!);
    expect(backup).toMatchObject({ eventType: 'backup', runIds: [expect.any(String) as unknown] });
    expect(restore).toMatchObject({ eventType: 'restore', runIds: [] });
  });

  it('refuses an eventTypePath on a provider scheme’s file, naming file, line and key', async () => {
    writeDefinition(
      dir,
      'webhooks/github-prod.yaml',
      'authMode: signature\nsignatureScheme: github\nsecretName: github-signing\neventTypePath: action\n',
    );
    const refused = await sync(relay);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toBe(
      'webhooks/github-prod.yaml:4: eventTypePath: only token, url_token and hmac-sha256 webhooks take an eventTypePath; provider schemes name their event themselves',
    );
  });

  it('writes eventTypePath to the file when the API changes it on a managed factory', async () => {
    const webhook = await nightly();
    const patched = await relay.call('webhooks.update', {
      uid: webhook.uid,
      eventTypePath: 'job.kind',
    });
    expect(patched.eventTypePath).toBe('job.kind');
    expect(readFileSync(join(dir, 'webhooks/nightly.yaml'), 'utf8')).toContain(
      'eventTypePath: job.kind',
    );
    const cleared = await relay.call('webhooks.update', { uid: webhook.uid, eventTypePath: null });
    expect(cleared).toMatchObject({ eventTypePath: null });
    expect(readFileSync(join(dir, 'webhooks/nightly.yaml'), 'utf8')).not.toContain('eventTypePath');
  });
});
