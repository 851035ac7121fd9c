import { Menu, Tray, clipboard, nativeImage } from 'electron';
import type { Core } from '../core.js';
import { tunnelMenuLine } from './tunnel-words.js';

/**
 * The status area: the relay's state and the public URL senders use, a way back to the window,
 * and Quit (which drains the ingress and closes the database first).
 */
export function createRelayTray(
  core: Core,
  iconPath: string,
  actions: { show: () => void; quit: () => void },
): Tray {
  const tray = new Tray(nativeImage.createFromPath(iconPath));
  const refresh = async (): Promise<void> => {
    const status = await core.service['relay.status']({}, { role: 'manage' });
    tray.setToolTip(
      `Hookport: relay running on ${status.ingressBaseUrl}\n${tunnelMenuLine(status.tunnel)}`,
    );
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Relay running', enabled: false },
        { label: `Ingress: ${status.ingressBaseUrl}`, enabled: false },
        { label: tunnelMenuLine(status.tunnel), enabled: false },
        { label: `Deliveries in the last hour: ${status.deliveriesLastHour}`, enabled: false },
        { type: 'separator' },
        status.tunnel.state === 'up' && status.tunnel.url
          ? { label: 'Copy tunnel URL', click: () => clipboard.writeText(status.tunnel.url ?? '') }
          : {
              label: 'Copy ingress base URL',
              click: () => clipboard.writeText(status.ingressBaseUrl),
            },
        { label: 'Open Hookport', click: actions.show },
        { type: 'separator' },
        { label: 'Quit Hookport', click: actions.quit },
      ]),
    );
  };
  void refresh();
  // Redraw on what the menu shows; a burst of deliveries redraws once.
  let pending: NodeJS.Timeout | null = null;
  core.events.subscribe((event) => {
    if (event.type !== 'delivery' && event.type !== 'changed') return;
    if (pending) return;
    pending = setTimeout(() => {
      pending = null;
      void refresh();
    }, 1_000);
  });
  tray.on('click', actions.show);
  return tray;
}
