import { ApiError } from '../../shared/errors.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso } from './to-json.js';
import { notificationFor } from './view-redaction.js';
import { requireFactory, requireLiveWebhook } from './webhooks.js';

type AlarmHandlers = Pick<
  ServiceHandlers,
  | 'alarms.list'
  | 'webhooks.alarms'
  | 'webhooks.setAlarms'
  | 'factories.alarmNotification'
  | 'factories.setAlarmNotification'
>;

/**
 * Alarm settings are the operator's watch over a webhook, not part of its definition: they are
 * set here (also for webhooks of a managed factory) and kept by UID, never in definition files.
 */
export function alarmHandlers(deps: ServiceDeps): AlarmHandlers {
  const settingsJson = async (uid: string) => {
    const settings = await deps.alarms.monitor.settingsOf(await requireLiveWebhook(deps, uid));
    return {
      uid,
      expectedEveryMinutes: settings.expectedEveryMinutes,
      authFailureStreak: settings.authFailureStreak,
    };
  };

  return {
    'alarms.list': async ({ factory }) => {
      await requireFactory(deps, factory);
      return {
        items: (await deps.alarms.monitor.active())
          .filter((alarm) => alarm.factoryId === factory)
          .map((alarm) => ({
            webhookUid: alarm.webhookUid,
            webhookName: alarm.webhookName,
            kind: alarm.kind,
            since: iso(alarm.since),
            message: alarm.message,
          })),
      };
    },
    'webhooks.alarms': ({ uid }) => settingsJson(uid),
    'webhooks.setAlarms': ({ uid, expectedEveryMinutes, authFailureStreak }) =>
      deps.writes.run(async () => {
        const webhook = await requireLiveWebhook(deps, uid);
        const current = await deps.alarms.monitor.settingsOf(webhook);
        const cadenceChanged =
          expectedEveryMinutes !== undefined &&
          expectedEveryMinutes !== current.expectedEveryMinutes;
        await deps.alarms.repo.saveSettings({
          webhookUid: uid,
          expectedEveryMinutes:
            expectedEveryMinutes === undefined
              ? current.expectedEveryMinutes
              : expectedEveryMinutes,
          // A new cadence counts from now: the webhook was not expected to keep it before.
          cadenceSetAt: cadenceChanged ? deps.now() : current.cadenceSetAt,
          authFailureStreak:
            authFailureStreak === undefined ? current.authFailureStreak : authFailureStreak,
        });
        await deps.alarms.monitor.recheck(uid);
        await deps.onChanged('alarms');
        return settingsJson(uid);
      }),
    'factories.alarmNotification': async ({ id }, caller) => {
      await requireFactory(deps, id);
      const notification = await deps.alarms.repo.notification(id);
      return { factory: id, notification: notificationFor(caller.role, notification) };
    },
    'factories.setAlarmNotification': ({ id, notification }) =>
      deps.writes.run(async () => {
        await requireFactory(deps, id);
        if (!(await deps.alarms.repo.saveNotification(id, notification))) {
          throw new ApiError('not_found', `No factory "${id}".`, 'id');
        }
        await deps.onChanged('settings');
        return { factory: id, notification };
      }),
  };
}
