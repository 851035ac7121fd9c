import { describe, expect, it } from 'vitest';
import { registerContractHandlers } from '../../src/main/ipc/ipc-transport.js';
import { silentLogger } from '../../src/main/log.js';
import { IPC_LEAVE_CHANNEL } from '../../src/shared/bridge.js';
import type { MethodName } from '../../src/shared/contract/index.js';
import { IpcMainStandIn } from '../support/ipc-main-stand-in.js';
import { bearer, postDelivery } from '../support/relay.js';
import { screenshot, useBrowserAndRelay } from './support/browser.js';
import { addWebhookInUi, deliveryRow, recentDeliveries } from './support/webhooks-ui.js';
import { waitFor } from '../support/wait.js';

/**
 * What the preload gives the desktop window (`window.hookport`: invoke, leave, subscribe), rebuilt in
 * the page over Playwright bindings: calls reach the real IPC transport through a stand-in for
 * Electron's ipcMain (the boundary we do not own), events come from the relay's event bus.
 */
const BRIDGE_SCRIPT = `
  (() => {
    const listeners = new Set();
    window.__hookportEvent = (event) => { for (const listener of listeners) listener(event); };
    window.hookport = {
      invoke: (method, input, ask) => window.__hookportInvoke(method, input, ask),
      leave: (ask) => window.__hookportLeave(ask),
      subscribe: (listener) => { listeners.add(listener); return () => listeners.delete(listener); },
    };
  })();
`;

describe('the UI over the desktop IPC bridge', () => {
  const env = useBrowserAndRelay();

  it('works without a session or the HTTP API: calls go over IPC, deliveries arrive as IPC events', async () => {
    const { browser, relay } = env;
    const ipc = new IpcMainStandIn();
    const unregister = registerContractHandlers(ipc, relay.core.service, {
      caller: { role: 'manage' },
      isTrustedSender: () => true,
      log: silentLogger,
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const apiRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url());
    });
    // A search's count can be held, as a week's first count takes seconds; the others pass.
    const counts: string[] = [];
    let held: Promise<void> | null = null;
    await page.exposeFunction(
      '__hookportInvoke',
      async (method: MethodName, input: { q?: string }, ask?: string) => {
        if (method === 'deliveries.count' && input.q !== undefined) {
          counts.push(`${input.q} ${ask}`);
          await held;
        }
        return ask === undefined ? ipc.invoke(method, input) : ipc.invoke(method, input, ask);
      },
    );
    const left: string[] = [];
    await page.exposeFunction('__hookportLeave', (ask: string) => {
      left.push(ask);
      ipc.send(IPC_LEAVE_CHANNEL, ask);
    });
    await page.addInitScript(BRIDGE_SCRIPT);
    const stopEvents = relay.core.events.subscribe((event) => {
      void page.evaluate(`window.__hookportEvent(${JSON.stringify(event)})`).catch(() => {});
    });
    try {
      // No login link and no cookie: over HTTP this page would ask for the admin token.
      await page.goto(relay.adminUrl);
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      const { url, secret } = await addWebhookInUi(page, 'desktop-hook');

      const sent = await postDelivery(url, '{"from":"desktop"}', bearer(secret));
      expect(sent.status).toBe(202);
      await deliveryRow(page, new RegExp(`^Accepted ${sent.body.delivery_id}`)).waitFor();
      await screenshot(page, 'desktop-ipc-webhooks');

      // A search typed over while its count is held: the window leaves that count (its ask).
      let release = (): void => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      const search = recentDeliveries(page).getByLabel('Search deliveries');
      await search.fill('nowhere-xyz');
      await waitFor(() => counts.length === 1, 'the first search counted');
      await search.fill('desktop');
      await waitFor(() => left.length === 1, 'the first count left');
      expect(counts[0]).toMatch(/^nowhere-xyz ask_[0-9a-z]{20}$/);
      expect(`nowhere-xyz ${left[0]}`).toBe(counts[0]);
      release();
      await recentDeliveries(page)
        .getByText(/^1 of 1 deliver/)
        .waitFor();
      expect(left).toHaveLength(1);

      expect(apiRequests).toEqual([]);
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'hookport_session')).toBeUndefined();
    } finally {
      stopEvents();
      unregister();
      await context.close();
    }
  });
});
