import { describe, expect, it } from 'vitest';
import { startTestRelay } from '../support/relay.js';
import { FAKE_TUNNEL, standInEnv } from '../support/tunnels.js';
import { UI_DIR, openUi, screenshot, useBrowser } from './support/browser.js';

/**
 * Settings → Tunnel in Chromium, with a stand-in tunnel program (test/support/tunnel-standins/
 * fake-tunnel) that prints its URL a moment after it starts, as a tunnel still connecting does.
 */
describe('a tunnel chosen in Settings, in Chromium', { timeout: 120_000 }, () => {
  const env = useBrowser();

  it('is tested, saved, and shown in the status line going from starting to up, with its URL to copy', async () => {
    const relay = await startTestRelay({ uiDir: UI_DIR, tunnel: { env: standInEnv() } });
    const ui = await openUi(env.browser, { relay, viewport: { width: 1400, height: 2000 } });
    try {
      const { page } = ui;
      const status = page.getByRole('contentinfo', { name: 'Relay status' });
      await status
        .getByText('No tunnel · senders on the internet cannot reach 127.0.0.1')
        .waitFor();
      await status.getByRole('link', { name: 'set one up' }).click();
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();

      const section = page.getByRole('region', { name: 'Tunnel' });
      await section.getByRole('radio', { name: 'A command' }).check();
      await section
        .getByLabel('Command', { exact: true })
        .fill(`${FAKE_TUNNEL} {port} --url-after-ms 1500`);
      await section.getByRole('button', { name: 'Test' }).click();
      const tested = section.getByRole('status');
      await tested.getByText(/The tunnel came up at http:\/\/127\.0\.0\.1:\d+/).waitFor({
        timeout: 30_000,
      });

      await section.getByRole('button', { name: 'Save tunnel' }).click();
      await status.getByText(/Tunnel starting…/).waitFor({ timeout: 30_000 });
      await status.getByText(/Tunnel up ·/).waitFor({ timeout: 30_000 });
      const url = relay.core.reachability.tunnel.url!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const shown = await status.getByText(/Tunnel up ·/).innerText();
      expect(shown.trim()).toBe(`Tunnel up · ${url} · copy`);
      await screenshot(page, 'tunnel-up');

      await status.getByRole('button', { name: 'Copy the tunnel URL' }).click();
      await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(url);
    } finally {
      await ui.close();
      await relay.stop();
    }
  });
});
