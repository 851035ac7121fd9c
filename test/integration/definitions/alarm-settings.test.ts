import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  copyFixture,
  createFixtureSecrets,
  sync,
  writeDefinition,
} from '../../support/definitions.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/**
 * Alarm settings watch a webhook; they are not part of its definition. Definition files do not
 * take them (the allow-list refuses the key, naming file, line and key), and a webhook of a
 * managed factory gets them through the API, where they stay across syncs (kept by UID).
 */
describe('alarm settings and definition files', () => {
  let relay: TestRelay;
  let dir: string;
  beforeEach(async () => {
    relay = await startTestRelay();
    dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    expect((await sync(relay, { dir })).status).toBe(200);
  });
  afterEach(() => relay.stop());

  it('refuses an alarm key in a webhook file, naming the file, line and key', async () => {
    writeDefinition(
      dir,
      'webhooks/nightly.yaml',
      'authMode: token\nsecretName: nightly-token\nexpectedEveryMinutes: 360\n',
    );
    const refused = await sync(relay);
    expect(refused.status).toBe(400);
    expect(refused.body.error!.path).toBe('webhooks/nightly.yaml:3:expectedEveryMinutes');
  });

  it('sets them on a managed webhook through the API, and keeps them across a sync', async () => {
    const { items } = await relay.call('webhooks.list', {});
    const uid = items.find((w) => w.name === 'nightly')!.uid;
    await relay.call('webhooks.setAlarms', { uid, expectedEveryMinutes: 1440 });
    writeDefinition(
      dir,
      'webhooks/nightly.yaml',
      'authMode: token\nsecretName: nightly-token\ndeliveryIdHeader: X-Run-Id\n',
    );
    const applied = await sync(relay);
    expect(applied.status).toBe(200);
    expect(await relay.call('webhooks.alarms', { uid })).toEqual({
      uid,
      expectedEveryMinutes: 1440,
      authFailureStreak: 5,
    });
  });
});
