import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childApi, spawnServe, type ChildRelay } from '../../support/child-relay.js';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';

/** PRODUCT §10 (contract): created at first start, kept in <data-dir>/admin-token (0600); the env wins. */
describe('the admin token', () => {
  const running: Array<TestRelay | ChildRelay> = [];
  const dirs: string[] = [];
  const dataDirForTest = (): string => {
    const dir = tempDir();
    dirs.push(dir);
    return dir;
  };
  const stopChild = async (relay: ChildRelay): Promise<void> => {
    relay.child.kill('SIGTERM');
    await relay.exited;
  };
  afterEach(async () => {
    for (const relay of running.splice(0)) {
      if ('core' in relay) await relay.stop();
      else await stopChild(relay);
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is created at first start in <data-dir>/admin-token with mode 0600, and kept across restarts', async () => {
    const dataDir = dataDirForTest();
    const first = await startTestRelay({ dataDir });
    const file = join(dataDir, 'admin-token');
    expect(first.core.adminToken).toMatchObject({ created: true, file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.adminToken);
    await first.stop();

    const second = await startTestRelay({ dataDir });
    running.push(second);
    expect(second.core.adminToken).toMatchObject({ created: false, value: first.adminToken });
    expect((await second.api('GET', '/api/status')).status).toBe(200);
  });

  it('is replaced by HOOKPORT_ADMIN_TOKEN when that is set', async () => {
    const dataDir = dataDirForTest();
    const first = await startTestRelay({ dataDir });
    const fileToken = first.adminToken;
    await first.stop();

    const fromEnv = 'hpa_from-the-environment-0123456789abcdef';
    const relay = await spawnServe(dataDir, { HOOKPORT_ADMIN_TOKEN: fromEnv });
    running.push(relay);
    expect((await childApi(relay, 'GET', '/api/status')).status).toBe(200);
    expect((await childApi({ ...relay, adminToken: fileToken }, 'GET', '/api/status')).status).toBe(
      401,
    );
    expect(relay.output()).not.toContain(fromEnv);
  });

  it('is printed once, on first start, by hookport serve', async () => {
    const dataDir = dataDirForTest();
    const first = await spawnServe(dataDir);
    expect(first.output()).toContain(first.adminToken);
    expect(statSync(join(dataDir, 'admin-token')).mode & 0o777).toBe(0o600);
    await stopChild(first);

    const second = await spawnServe(dataDir);
    running.push(second);
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.output()).not.toContain(first.adminToken);
    expect((await childApi(second, 'GET', '/api/status')).status).toBe(200);
  });
});
