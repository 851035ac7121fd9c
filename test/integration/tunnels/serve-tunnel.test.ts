import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe } from '../../support/child-relay.js';
import { tempDir } from '../../support/relay.js';
import { STANDINS, alive, recordedGroup, recordedGroups } from '../../support/tunnels.js';
import { waitFor } from '../../support/wait.js';

const PUBLIC_URL_LINE =
  /Public URL {3}(https:\/\/\S+\.trycloudflare\.com) {2}\(cloudflared quick tunnel\)/;

/**
 * `hookport serve --tunnel cloudflared` as a user runs it (the stand-in cloudflared on PATH):
 * the banner's Public URL line, and a tunnel program that never outlives its relay.
 */
describe('hookport serve --tunnel', { timeout: 240_000 }, () => {
  const dataDir = tempDir('hookport-serve-tunnel-');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { PATH: `${STANDINS}:${process.env.PATH ?? ''}` };

  it('prints the public URL; after a SIGKILL the next start stops the left-over program; SIGTERM stops it', async () => {
    const first = await spawnServe(dataDir, env, {
      args: ['--tunnel', 'cloudflared'],
      startTimeoutMs: 90_000,
    });
    const url = PUBLIC_URL_LINE.exec(first.output())?.[1];
    expect(url, first.output()).toBeDefined();
    expect(first.output()).toContain(`(POST ${url}/webhooks/w/<uid>)`);
    const leftOver = recordedGroup(dataDir);
    expect(alive(leftOver)).toBe(true);

    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(leftOver)).toBe(true);

    // No --tunnel this time: the choice was kept as the relay's setting (SQLite).
    const second = await spawnServe(dataDir, env, { startTimeoutMs: 90_000 });
    expect(second.output()).toContain(
      '[tunnel] stopped a tunnel program a previous relay left running',
    );
    await waitFor(() => !alive(leftOver), 'the left-over cloudflared to stop');
    const newUrl = PUBLIC_URL_LINE.exec(second.output())?.[1];
    expect(newUrl, second.output()).toBeDefined();
    expect(newUrl).not.toBe(url);
    const running = recordedGroup(dataDir);

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(alive(running)).toBe(false);
    expect(recordedGroups(dataDir)).toEqual([]);
  });

  it('refuses an unknown kind in words', async () => {
    await expect(
      spawnServe(tempDir('hookport-serve-tunnel-'), env, {
        args: ['--tunnel', 'wormhole'],
        startTimeoutMs: 90_000,
      }),
    ).rejects.toThrow(
      '--tunnel must be cloudflared, ngrok, tailscale, ssh:<destination> or command:<program and arguments>, not "wormhole"',
    );
  });
});
