import { Notification, app } from 'electron';
import type { TunnelStatus } from '../../shared/contract/relay.js';
import type { Core } from '../core.js';
import { describeError, type Logger } from '../log.js';

const MANAGE = { role: 'manage' } as const;

/**
 * The desktop's notifications (PRODUCT §20): the tunnel went down, came back (with a new URL or
 * the same), or a provider link recovered deliveries. Each is shown only while Settings → Desktop
 * app → notifications is on (the default).
 */
export function showDesktopNotices(core: Core, log: Logger): () => void {
  const notify = (title: string, body: string): void => {
    void core.service['settings.get']({}, MANAGE).then(
      (settings) => {
        if (settings.desktopNotifications && Notification.isSupported()) {
          new Notification({ title, body }).show();
        }
      },
      (error: unknown) => log.warn(`[desktop] notification not shown: ${describeError(error)}`),
    );
  };

  let previous: TunnelStatus = core.reachability.tunnel;
  let lastUpUrl: string | null = previous.state === 'up' ? previous.url : null;
  const quitTunnel = core.reachability.subscribe((event) => {
    if (event.type !== 'tunnel') return;
    const now = event.tunnel;
    if (now.state === 'down' && previous.state !== 'down') {
      notify(
        'Tunnel down',
        `${now.lastError ?? 'The tunnel stopped'}. Senders on the internet cannot reach the relay until it is back; Hookport keeps trying.`,
      );
    } else if (now.state === 'up' && now.url && previous.state !== 'up') {
      if (lastUpUrl !== null && now.url !== lastUpUrl) {
        notify('Tunnel back with a new URL', `${now.url} (was ${lastUpUrl})`);
      } else if (lastUpUrl !== null) {
        notify('Tunnel back up', now.url);
      }
      lastUpUrl = now.url;
    }
    previous = now;
  });

  const quitRecovered = core.events.subscribe((event) => {
    if (event.type !== 'recovered' || event.asked === 0) return;
    void core.service['webhooks.get']({ uid: event.webhookUid }, MANAGE).then(
      (webhook) => notify('Deliveries recovered', recoveredText(event.asked, webhook.name)),
      () => notify('Deliveries recovered', recoveredText(event.asked, event.webhookUid)),
    );
  });
  return () => {
    quitTunnel();
    quitRecovered();
  };
}

const recoveredText = (asked: number, webhook: string): string =>
  `Asked the provider to deliver ${asked} missed ${asked === 1 ? 'delivery' : 'deliveries'} to ${webhook} again.`;

/** Opening at login follows Settings → Desktop app (off unless switched on). */
export function followLoginItem(core: Core): () => void {
  const apply = (): void => {
    void core.service['settings.get']({}, MANAGE).then((settings) => {
      if (app.getLoginItemSettings().openAtLogin !== settings.openAtLogin) {
        app.setLoginItemSettings({ openAtLogin: settings.openAtLogin });
      }
    });
  };
  apply();
  return core.events.subscribe((event) => {
    if (event.type === 'changed' && event.resource === 'settings') apply();
  });
}
