import { describe, expect, it } from 'vitest';
import { registerContractHandlers } from '../../src/main/ipc/ipc-transport.js';
import { silentLogger } from '../../src/main/log.js';
import type { MethodName } from '../../src/shared/contract/index.js';
import { IpcMainStandIn } from '../support/ipc-main-stand-in.js';
import { bearer, postDelivery } from '../support/relay.js';
import { screenshot, useBrowserAndRelay } from './support/browser.js';
import { addWebhookInUi, deliveryRow } from './support/webhooks-ui.js';

/**
 * What the preload gives the desktop window (`window.hookport`: invoke + subscribe), rebuilt in
 * the page over Playwright bindings: calls reach the real IPC transport through a stand-in for
 * Electron's ipcMain (the boundary we do not own), events come from the relay's event bus.
 */
const BRIDGE_SCRIPT = `
  (() => {
    const listeners = new Set();
    window.__hookportEvent = (event) => { for (const listener of listeners) listener(event); };
    window.hookport = {
      invoke: (method, input) => window.__hookportInvoke(method, input),
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
    await page.exposeFunction('__hookportInvoke', (method: MethodName, input: unknown) =>
      ipc.invoke(method, input),
    );
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
