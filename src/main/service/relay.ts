import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';

const HOUR_MS = 60 * 60_000;

type RelayHandlers = Pick<
  ServiceHandlers,
  'factories.list' | 'relay.status' | 'settings.get' | 'settings.update'
>;

export function relayHandlers(deps: ServiceDeps): RelayHandlers {
  const settingsJson = () => ({
    publicUrl: deps.settings.publicUrl,
    effectivePublicUrl: deps.settings.ingressBaseUrl,
    retentionDays: deps.settings.retentionDays,
    retentionMinPerWebhook: deps.settings.retentionMinPerWebhook,
  });

  return {
    'factories.list': () =>
      Promise.resolve({
        items: deps.factories.all().map((f) => ({
          id: f.id,
          name: f.name,
          managed: f.definitionsDir !== null,
          definitionsDir: f.definitionsDir,
          webhookCount: deps.webhooks.countLive(f.id),
          webhookLimit: deps.limits.webhooksPerFactory,
        })),
      }),
    'relay.status': (_input, caller) =>
      Promise.resolve({
        version: deps.version,
        role: caller.role,
        ingressBaseUrl: deps.settings.ingressBaseUrl,
        secretBackend: deps.secrets.backend,
        deliveriesLastHour: deps.deliveries.countSince(deps.now() - HOUR_MS),
        refusalsLastHour: deps.refusals.countsLastHour(deps.now()),
        cliCommand: deps.cliCommand,
      }),
    'settings.get': () => Promise.resolve(settingsJson()),
    'settings.update': (changes) =>
      deps.writes.run(() => {
        if (changes.publicUrl !== undefined) deps.settings.publicUrl = changes.publicUrl;
        if (changes.retentionDays !== undefined)
          deps.settings.retentionDays = changes.retentionDays;
        if (changes.retentionMinPerWebhook !== undefined) {
          deps.settings.retentionMinPerWebhook = changes.retentionMinPerWebhook;
        }
        deps.events.emit({ type: 'changed', resource: 'settings' });
        return settingsJson();
      }),
  };
}
