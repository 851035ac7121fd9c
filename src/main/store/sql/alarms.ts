import { alarmNotificationSchema, type AlarmKind } from '../../../shared/contract/alarms.js';
import { toAlarmSettings, type AlarmSettingsRow, type AlarmsRepository } from '../alarms.js';
import { one, row, rows, run, type Calls } from './query.js';

/** Alarm settings per webhook, raised alarms and each factory's notification: SQL for both stores. */
export const alarmsCalls: Calls<AlarmsRepository> = {
  settings: (webhookUid) =>
    row(
      `SELECT expected_every_minutes, cadence_set_at, auth_failure_streak
       FROM webhook_alarm_settings WHERE webhook_uid = $1`,
      [webhookUid],
      (r?: AlarmSettingsRow) => toAlarmSettings(webhookUid, r),
    ),
  saveSettings: (record) =>
    run(
      `INSERT INTO webhook_alarm_settings
         (webhook_uid, expected_every_minutes, cadence_set_at, auth_failure_streak)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (webhook_uid) DO UPDATE SET expected_every_minutes = excluded.expected_every_minutes,
         cadence_set_at = excluded.cadence_set_at, auth_failure_streak = excluded.auth_failure_streak`,
      [
        record.webhookUid,
        record.expectedEveryMinutes,
        record.cadenceSetAt,
        record.authFailureStreak,
      ],
    ),
  // kind is 'auth' or 'quiet' (a CHECK on both stores): any collation sorts them alike.
  raised: () =>
    rows(
      'SELECT webhook_uid, kind, since FROM webhook_alarms ORDER BY since, webhook_uid, kind',
      [],
      (r: { webhook_uid: string; kind: AlarmKind; since: number }) => ({
        webhookUid: r.webhook_uid,
        kind: r.kind,
        since: r.since,
      }),
    ),
  // Two relays may raise the same alarm at once: one row, and only one of them hears true.
  raise: (alarm) =>
    run(
      'INSERT INTO webhook_alarms (webhook_uid, kind, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [alarm.webhookUid, alarm.kind, alarm.since],
      one,
    ),
  clear: (webhookUid, kind) =>
    run('DELETE FROM webhook_alarms WHERE webhook_uid = $1 AND kind = $2', [webhookUid, kind], one),
  /** A stored value that no longer parses throws, naming the fix, rather than notifying no one. */
  notification: (factoryId) =>
    row(
      'SELECT alarm_notification FROM factories WHERE id = $1',
      [factoryId],
      (r?: { alarm_notification: string | null }) => {
        const text = r?.alarm_notification ?? null;
        if (text === null) return null;
        const parsed = alarmNotificationSchema.safeParse(JSON.parse(text));
        if (!parsed.success) {
          throw new Error(
            `The alarm notification of factory "${factoryId}" is not valid; set it again.`,
          );
        }
        return parsed.data;
      },
    ),
  saveNotification: (factoryId, value) =>
    run(
      'UPDATE factories SET alarm_notification = $1 WHERE id = $2',
      [value === null ? null : JSON.stringify(value), factoryId],
      one,
    ),
  lastAcceptedAt: (webhookUid) =>
    row(
      "SELECT received_at FROM deliveries WHERE webhook_uid = $1 AND label = 'Accepted' ORDER BY id DESC LIMIT 1",
      [webhookUid],
      (r?: { received_at: number }) => r?.received_at ?? null,
    ),
  newestLabels: (webhookUid, limit) =>
    rows(
      'SELECT label FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT $2',
      [webhookUid, limit],
      (r: { label: string }) => r.label,
    ),
};
