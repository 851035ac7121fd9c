import { afterEach, describe, expect, it } from 'vitest';
import { startTestRelay, tempDir, type TestRelay } from '../../support/relay.js';
import { storeConfig } from '../../support/stores.js';
import {
  FAKE_TUNNEL,
  alive,
  recordedGroup,
  recordedGroups,
  standInEnv,
  tunnelState,
} from '../../support/tunnels.js';

/**
 * On PostgreSQL each replica runs its own tunnel or none: `--tunnel` is this relay's alone (not
 * kept in the shared settings), and Settings cannot choose one for every replica at once.
 */
describe('tunnels of relays sharing PostgreSQL', { timeout: 120_000 }, () => {
  const relays: TestRelay[] = [];
  afterEach(async () => {
    for (const relay of relays.splice(0)) await relay.stop();
  });

  it('runs the tunnel on the replica that was given one, and only there', async () => {
    const shared = tempDir('hookport-replicas-');
    const withTunnel = await startTestRelay({
      ...storeConfig('postgres'),
      dataDir: shared,
      tunnel: {
        choice: { kind: `command:${FAKE_TUNNEL} {port}`, domain: null },
        env: standInEnv(),
      },
    });
    relays.push(withTunnel);
    const up = await tunnelState(withTunnel.core, (t) => t.state === 'up');
    const other = await startTestRelay({ ...storeConfig('postgres'), dataDir: shared });
    relays.push(other);

    expect(other.core.reachability.tunnel.state).toBe('off');
    // The second relay on this data dir left the first one's tunnel program alone.
    expect(recordedGroups(shared)).toHaveLength(1);
    expect(alive(recordedGroup(shared))).toBe(true);
    expect(withTunnel.core.reachability.tunnel).toMatchObject({ state: 'up', url: up.url });
    const otherSettings = await other.call('settings.get', {});
    expect(otherSettings.tunnel).toBeNull();
    const mine = await withTunnel.call('relay.status', {});
    expect(mine.ingressBaseUrl).toBe(up.url);
    const theirs = await other.call('relay.status', {});
    expect(theirs.ingressBaseUrl).toBe(other.ingressUrl);

    const refused = await other.callError('settings.update', { tunnel: { kind: 'cloudflared' } });
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe(
      'On a shared PostgreSQL store each relay runs its own tunnel or none: start the relay with --tunnel (or HOOKPORT_TUNNEL) instead.',
    );
  });
});
