import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestRelay, type TestRelay } from '../../support/relay.js';
import { FAKE_TUNNEL, recordedGroup, standInEnv, tunnelState } from '../../support/tunnels.js';
import { waitFor } from '../../support/wait.js';

// No Electron binary runs here: main's modules run against the recording stand-in.
vi.mock('electron', () => import('../../support/electron-standin/electron.js'));
const standIn = await import('../../support/electron-standin/electron.js');
const { createRelayTray } = await import('../../../src/main/electron/tray.js');
const { followLoginItem, showDesktopNotices } =
  await import('../../../src/main/electron/desktop-notices.js');

type Notice = { title: string; body: string };
const notices = (): Notice[] => standIn.recorded.notifications as Notice[];
const menu = (): string[] => standIn.trayMenuItems().map((item) => item.label ?? '---');

/** The desktop shell's tray, notifications and login item (PRODUCT §20) on a real relay. */
describe('the desktop tray and notifications', { timeout: 90_000 }, () => {
  let relay: TestRelay | null = null;
  afterEach(async () => {
    await relay?.stop();
    relay = null;
  });

  it('shows the tunnel with its URL to copy, and notifies when it goes down and comes back', async () => {
    relay = await startTestRelay({
      tunnel: {
        choice: { kind: `command:${FAKE_TUNNEL} {port}`, domain: null },
        env: standInEnv(),
      },
    });
    const { core } = relay;
    createRelayTray(core, '/icon.png', { show: () => undefined, quit: () => undefined });
    const stop = showDesktopNotices(core, console);
    const stopLogin = followLoginItem(core);
    try {
      const up = await tunnelState(core, (t) => t.state === 'up');
      await waitFor(() => menu().includes(`Tunnel up: ${up.url}`), 'the tray to show the tunnel');
      standIn.trayMenuItems().find((item) => item.label === 'Copy tunnel URL')!.click!();
      expect(standIn.recorded.copied).toEqual([up.url]);

      process.kill(-recordedGroup(relay.dataDir), 'SIGKILL');
      await waitFor(() => notices().some((n) => n.title === 'Tunnel down'), 'a down notice');
      expect(notices().find((n) => n.title === 'Tunnel down')!.body).toMatch(
        /fake-tunnel was ended by SIGKILL\. Senders on the internet cannot reach the relay until it is back; Hookport keeps trying\.$/,
      );
      const again = await tunnelState(core, (t) => t.state === 'up');
      await waitFor(
        () => notices().find((n) => n.title === 'Tunnel back with a new URL'),
        'a back-up notice',
      );
      expect(notices().at(-1)).toEqual({
        title: 'Tunnel back with a new URL',
        body: `${again.url} (was ${up.url})`,
      });
      await waitFor(() => menu().includes(`Tunnel up: ${again.url}`), 'the tray to follow');

      const created = await relay.createWebhook({ name: 'github-push' });
      core.events.emit({ type: 'recovered', webhookUid: created.webhook.uid, asked: 3 });
      await waitFor(() => notices().at(-1)?.title === 'Deliveries recovered', 'a recovery notice');
      expect(notices().at(-1)!.body).toBe(
        'Asked the provider to deliver 3 missed deliveries to github-push again.',
      );

      // Switched off in Settings: nothing more is shown.
      await relay.call('settings.update', { desktopNotifications: false, openAtLogin: true });
      const count = notices().length;
      core.events.emit({ type: 'recovered', webhookUid: created.webhook.uid, asked: 1 });
      await waitFor(
        () => (standIn.recorded.loginItem as { openAtLogin: boolean } | undefined)?.openAtLogin,
        'the login item to be set',
      );
      await core.service['settings.get']({}, { role: 'manage' });
      expect(notices()).toHaveLength(count);
    } finally {
      stop();
      stopLogin();
    }
  });
});
