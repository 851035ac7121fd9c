import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EncryptedFileSecretStore, loadMasterKey } from '../../../src/main/secrets/file-store.js';
import { copyFixture, createFixtureSecrets, sync } from '../../support/definitions.js';
import {
  bearer,
  postDelivery,
  startTestRelay,
  tempDir,
  type TestRelay,
} from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

describe('a managed factory over time', () => {
  const relays: TestRelay[] = [];
  const start = async (dataDir?: string): Promise<TestRelay> => {
    const relay = await startTestRelay(dataDir ? { dataDir } : {});
    relays.push(relay);
    return relay;
  };
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.stop();
  });
  const webhooks = async (relay: TestRelay) => (await relay.call('webhooks.list', {})).items;

  it('applies an edit the watcher sees, within about a second', async () => {
    const relay = await start();
    const dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
    writeFileSync(
      join(dir, 'webhooks/nightly.yaml'),
      'authMode: token\nsecretName: nightly-token\nenabled: false\n',
    );
    await waitFor(
      async () => (await webhooks(relay)).find((w) => w.name === 'nightly')?.enabled === false,
      'the edit to apply',
      {
        timeoutMs: 1_500,
      },
    );
  });

  it('keeps the last good state when an edited file is broken, and logs what to fix', async () => {
    const relay = await start();
    const dir = copyFixture('basic');
    await createFixtureSecrets(relay);
    await sync(relay, { dir });
    const good = JSON.stringify(await webhooks(relay));
    writeFileSync(
      join(dir, 'webhooks/nightly.yaml'),
      'authMode: token\nsecretName: nightly-token\nretries: 3\n',
    );
    await waitFor(
      () => relay.logs.some((l) => l.includes('webhooks/nightly.yaml:3: retries: unknown key')),
      'the refusal in the log',
    );
    expect(JSON.stringify(await webhooks(relay))).toBe(good);
  });

  it('keeps every UID across a restart, and watches the directory again', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir);
    const dir = copyFixture('basic');
    await createFixtureSecrets(first);
    await sync(first, { dir });
    const uids = (await webhooks(first)).map((w) => [w.name, w.uid]).sort();
    await first.stop();

    const second = await start(dataDir);
    expect((await sync(second)).body.items.every((i) => i.action === 'unchanged')).toBe(true);
    expect((await webhooks(second)).map((w) => [w.name, w.uid]).sort()).toEqual(uids);
    writeFileSync(
      join(dir, 'webhooks/partner.yaml'),
      'authMode: url_token\nsecretName: partner-url\nenabled: true\n',
    );
    await waitFor(
      async () => (await webhooks(second)).find((w) => w.name === 'partner')?.enabled,
      'the watcher after restart',
    );
  });

  it('picks up a team secret rotated outside the relay on the next sync', async () => {
    const relay = await start();
    const dir = copyFixture('basic');
    const values = await createFixtureSecrets(relay);
    await sync(relay, { dir });
    const nightly = (await webhooks(relay)).find((w) => w.name === 'nightly')!;
    const old = values['nightly-token']!;
    // Another tool writes a new value straight into the secret store, as a keychain user might.
    const store = new EncryptedFileSecretStore(
      relay.dataDir,
      loadMasterKey(relay.dataDir, undefined),
    );
    await store.set('default/nightly-token', 'rotated-outside-0123456789');
    expect((await postDelivery(nightly.ingressUrl, '{"n":1}', bearer(old))).status).toBe(202);

    const result = await sync(relay);
    expect(result.status).toBe(200);
    expect((await postDelivery(nightly.ingressUrl, '{"n":2}', bearer(old))).status).toBe(401);
    expect(
      (await postDelivery(nightly.ingressUrl, '{"n":3}', bearer('rotated-outside-0123456789')))
        .status,
    ).toBe(202);
    const listed = await relay.call('secrets.list', {});
    expect(listed.items.find((s) => s.name === 'nightly-token')?.rotatedAt).not.toBeNull();
  });
});
