import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServe } from '../../support/child-relay.js';
import { startKeyringSession, type KeyringSession } from '../../support/keyring-session.js';
import { startTestRelay, tempDir } from '../../support/relay.js';

const UNREACHABLE_BUS = 'unix:path=/nonexistent/hookport-test-bus';

describe('choosing where secret values live', () => {
  let keyring: KeyringSession;
  let reachableBus: string;
  beforeAll(async () => {
    keyring = await startKeyringSession();
    reachableBus = process.env.DBUS_SESSION_BUS_ADDRESS!;
  });
  afterAll(() => keyring?.stop());

  it('picks the OS keychain when one answers', async () => {
    const relay = await startTestRelay({ secretBackend: undefined });
    expect(relay.core.secrets.backend).toBe('keychain');
    await relay.stop();
  });

  // The keychain library keeps its D-Bus connection for the life of a process, so "no keychain"
  // is a relay in a process of its own, started as a user would.
  it('says at start which backend it uses: the keychain when one answers', async () => {
    const relay = await spawnServe(tempDir(), { DBUS_SESSION_BUS_ADDRESS: reachableBus });
    expect(relay.output()).toMatch(/Secrets\s+OS keychain/);
    relay.child.kill('SIGTERM');
    await relay.exited;
  });

  it('falls back to the encrypted file when no keychain answers, and says so', async () => {
    const relay = await spawnServe(tempDir(), { DBUS_SESSION_BUS_ADDRESS: UNREACHABLE_BUS });
    expect(relay.output()).toMatch(/Secrets\s+encrypted file/);
    relay.child.kill('SIGTERM');
    await relay.exited;
  });

  it('refuses to start when the keychain is required but does not answer', async () => {
    await expect(
      spawnServe(tempDir(), {
        DBUS_SESSION_BUS_ADDRESS: UNREACHABLE_BUS,
        HOOKPORT_SECRET_BACKEND: 'keychain',
      }),
    ).rejects.toThrow(/HOOKPORT_SECRET_BACKEND=keychain, but no keychain answered/);
  });

  it('stays with the keychain its secrets are in, rather than silently switching to the file', async () => {
    const dataDir = tempDir();
    const first = await startTestRelay({ dataDir, secretBackend: undefined });
    await first.call('secrets.create', { name: 'kept-in-keychain' });
    await first.stop();
    await expect(
      spawnServe(dataDir, { DBUS_SESSION_BUS_ADDRESS: UNREACHABLE_BUS }),
    ).rejects.toThrow(
      /This data dir keeps its secrets in the OS keychain, but no keychain answered/,
    );
    keyring.clear();
  });

  it('refuses an unknown backend name', async () => {
    await expect(startTestRelay({ secretBackend: 'vault' })).rejects.toThrow(
      /must be "keychain" or "file"/,
    );
  });

  it('stays with the file its secrets are in, even once a keychain appears', async () => {
    const dataDir = tempDir();
    const first = await startTestRelay({ dataDir, secretBackend: 'file' });
    await first.call('secrets.create', { name: 'kept-in-file' });
    await first.stop();
    const again = await startTestRelay({ dataDir, secretBackend: undefined });
    expect(again.core.secrets.backend).toBe('file');
    expect((await again.call('secrets.list', {})).items).toHaveLength(1);
    await again.stop();
  });

  it('never overwrites a keychain item this relay did not create', async () => {
    keyring.secretTool(
      ['store', '--label', 'other relay', 'service', 'hookport', 'username', 'default/taken'],
      'not-ours',
    );
    const relay = await startTestRelay({ secretBackend: 'keychain' });
    const refused = await relay.callError('secrets.create', { name: 'taken' });
    expect(refused).toMatchObject({
      code: 'conflict',
      path: 'name',
      message: expect.stringContaining('did not create') as unknown,
    });
    expect(
      keyring.secretTool(['lookup', 'service', 'hookport', 'username', 'default/taken']).stdout,
    ).toBe('not-ours');
    await relay.stop();
    keyring.clear();
  });
});

describe('the encrypted-file backend', () => {
  it('keeps the key file and the secrets file readable by the owner only', async () => {
    const relay = await startTestRelay({ secretBackend: 'file' });
    await relay.call('secrets.create', { name: 'on-disk' });
    for (const file of ['master.key', 'secrets.enc']) {
      expect(statSync(join(relay.dataDir, file)).mode & 0o777, file).toBe(0o600);
    }
    await relay.stop();
  });

  it('refuses to start with a master key that did not encrypt the secrets, saying so', async () => {
    const dataDir = tempDir();
    const key = (byte: string) => Buffer.alloc(32, byte).toString('base64');
    const first = await startTestRelay({
      dataDir,
      secretBackend: 'file',
      masterKeyFromEnv: key('a'),
    });
    await first.call('secrets.create', { name: 'locked' });
    await first.stop();
    await expect(
      startTestRelay({ dataDir, secretBackend: 'file', masterKeyFromEnv: key('b') }),
    ).rejects.toThrow(/cannot be decrypted: the master key is not the one it was stored with/);
  });

  it('refuses a master key that is not 32 bytes', async () => {
    await expect(
      startTestRelay({ secretBackend: 'file', masterKeyFromEnv: 'too-short' }),
    ).rejects.toThrow(/HOOKPORT_MASTER_KEY must be 32 bytes/);
  });
});
