import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';

const HOUR_MS = 60 * 60_000;

type RelayHandlers = Pick<
  ServiceHandlers,
  'factories.list' | 'relay.status' | 'settings.get' | 'settings.update' | 'tunnel.test'
>;

export function relayHandlers(deps: ServiceDeps): RelayHandlers {
  const settingsJson = () => ({
    publicUrl: deps.settings.publicUrl,
    effectivePublicUrl: deps.settings.ingressBaseUrl,
    retentionDays: deps.settings.retentionDays,
    retentionMinPerWebhook: deps.settings.retentionMinPerWebhook,
    tunnel: deps.settings.tunnel,
    desktopNotifications: deps.settings.desktopNotifications,
    openAtLogin: deps.settings.openAtLogin,
  });

  return {
    'factories.list': async () => {
      const items = [];
      for (const f of await deps.factories.all()) {
        items.push({
          id: f.id,
          name: f.name,
          managed: f.definitionsDir !== null,
          definitionsDir: f.definitionsDir,
          webhookCount: await deps.webhooks.countLive(f.id),
          webhookLimit: deps.limits.webhooksPerFactory,
        });
      }
      return { items };
    },
    'relay.status': async (_input, caller) => ({
      version: deps.version,
      role: caller.role,
      ingressBaseUrl: deps.settings.ingressBaseUrl,
      secretBackend: deps.secrets.backend,
      deliveriesLastHour: await deps.deliveries.countSince(deps.now() - HOUR_MS),
      refusalsLastHour: deps.refusals.countsLastHour(deps.now()),
      cliCommand: deps.cliCommand,
      tunnel: deps.reachability.tunnel,
      lastWake: deps.reachability.lastWake,
    }),
    'settings.get': () => Promise.resolve(settingsJson()),
    'tunnel.test': (choice) => deps.tunnel.test(choice),
    'settings.update': (changes) =>
      deps.writes.run(async () => {
        if (changes.tunnel !== undefined) await deps.tunnel.choose(changes.tunnel);
        if (changes.publicUrl !== undefined) await deps.settings.setPublicUrl(changes.publicUrl);
        if (changes.retentionDays !== undefined)
          await deps.settings.setRetentionDays(changes.retentionDays);
        if (changes.retentionMinPerWebhook !== undefined) {
          await deps.settings.setRetentionMinPerWebhook(changes.retentionMinPerWebhook);
        }
        if (changes.desktopNotifications !== undefined)
          await deps.settings.setDesktopNotifications(changes.desktopNotifications);
        if (changes.openAtLogin !== undefined)
          await deps.settings.setOpenAtLogin(changes.openAtLogin);
        deps.reachability.noticeBase();
        await deps.onChanged('settings');
        return settingsJson();
      }),
  };
}
