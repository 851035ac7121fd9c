import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { FAKE_TUNNEL, standInEnv, tunnelState } from '../../support/tunnels.js';

/** After the machine wakes (PRODUCT §20), a tunnel that is not up is started again at once. */
describe('a tunnel after a wake', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('is restarted when the relay wakes, even after an error that waits for the user', async () => {
    const program = join(tempDir('hookport-wake-'), 'late-tunnel');
    relay = await startTestRelay({
      tunnel: { choice: { kind: `command:${program} {port}`, domain: null }, env: standInEnv() },
    });
    const down = await tunnelState(relay.core, (t) => t.state === 'down');
    expect(down.lastError).toContain('was not found');

    // Installed while the machine slept; nothing retries a missing program on a timer.
    symlinkSync(FAKE_TUNNEL, program);
    relay.core.reachability.woke(Date.now(), 6 * 3600);
    const up = await tunnelState(relay.core, (t) => t.state === 'up');
    expect(up.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
