import { alarmNotificationSchema, type AlarmKind } from '../../../shared/contract/alarms.js';
import { toAlarmSettings, type AlarmSettingsRow, type AlarmsRepository } from '../alarms.js';
import type { Queryable } from './client.js';

/** alarms-repo.ts on PostgreSQL: settings per webhook, raised alarms, each factory's notification. */
export function createPostgresAlarmsRepository(q: Queryable): AlarmsRepository {
  return {
    settings: async (webhookUid) => {
      const { rows } = await q.query<AlarmSettingsRow>(
        `SELECT expected_every_minutes, cadence_set_at, auth_failure_streak
         FROM webhook_alarm_settings WHERE webhook_uid = $1`,
        [webhookUid],
      );
      const row = rows[0];
      return toAlarmSettings(webhookUid, row);
    },
    saveSettings: async (record) => {
      await q.query(
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
      );
    },
    // kind has the database's collation: byte order, as SQLite sorts it.
    raised: async () => {
      const { rows } = await q.query<{ webhook_uid: string; kind: AlarmKind; since: number }>(
        'SELECT webhook_uid, kind, since FROM webhook_alarms ORDER BY since, webhook_uid, kind COLLATE "C"',
      );
      return rows.map((r) => ({ webhookUid: r.webhook_uid, kind: r.kind, since: r.since }));
    },
    // Two replicas may raise the same alarm at once: one row, and only one of them hears true.
    raise: async (alarm) => {
      const { rowCount } = await q.query(
        'INSERT INTO webhook_alarms (webhook_uid, kind, since) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [alarm.webhookUid, alarm.kind, alarm.since],
      );
      return rowCount === 1;
    },
    clear: async (webhookUid, kind) => {
      const { rowCount } = await q.query(
        'DELETE FROM webhook_alarms WHERE webhook_uid = $1 AND kind = $2',
        [webhookUid, kind],
      );
      return rowCount === 1;
    },
    notification: async (factoryId) => {
      const { rows } = await q.query<{ alarm_notification: string | null }>(
        'SELECT alarm_notification FROM factories WHERE id = $1',
        [factoryId],
      );
      const text = rows[0]?.alarm_notification ?? null;
      if (text === null) return null;
      const parsed = alarmNotificationSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        throw new Error(
          `The alarm notification of factory "${factoryId}" is not valid; set it again.`,
        );
      }
      return parsed.data;
    },
    saveNotification: async (factoryId, value) => {
      const { rowCount } = await q.query(
        'UPDATE factories SET alarm_notification = $1 WHERE id = $2',
        [value === null ? null : JSON.stringify(value), factoryId],
      );
      return rowCount === 1;
    },
    lastAcceptedAt: async (webhookUid) => {
      const { rows } = await q.query<{ received_at: number }>(
        "SELECT received_at FROM deliveries WHERE webhook_uid = $1 AND label = 'Accepted' ORDER BY id DESC LIMIT 1",
        [webhookUid],
      );
      return rows[0]?.received_at ?? null;
    },
    newestLabels: async (webhookUid, limit) => {
      const { rows } = await q.query<{ label: string }>(
        'SELECT label FROM deliveries WHERE webhook_uid = $1 ORDER BY id DESC LIMIT $2',
        [webhookUid, limit],
      );
      return rows.map((r) => r.label);
    },
  };
}
