import {
  toAlarmSettings,
  type AlarmSettingsRecord,
  type RaisedAlarm,
  type AlarmsRepository,
} from '../alarms.js';
import type { Sync } from '../store.js';
import {
  alarmNotificationSchema,
  type AlarmKind,
  type AlarmNotification,
} from '../../../shared/contract/alarms.js';
import type { Db } from './db.js';

/** Alarm settings per webhook, the alarms raised now, and how each factory is notified. */
export function createAlarmsRepository(db: Db): Sync<AlarmsRepository> {
  const settings = db.prepare<
    [string],
    {
      expected_every_minutes: number | null;
      cadence_set_at: number;
      auth_failure_streak: number | null;
    }
  >('SELECT * FROM webhook_alarm_settings WHERE webhook_uid = ?');
  const saveSettings = db.prepare(`
    INSERT INTO webhook_alarm_settings (webhook_uid, expected_every_minutes, cadence_set_at, auth_failure_streak)
    VALUES (@webhookUid, @expectedEveryMinutes, @cadenceSetAt, @authFailureStreak)
    ON CONFLICT (webhook_uid) DO UPDATE SET expected_every_minutes = excluded.expected_every_minutes,
      cadence_set_at = excluded.cadence_set_at, auth_failure_streak = excluded.auth_failure_streak`);
  const raised = db.prepare<[], { webhook_uid: string; kind: AlarmKind; since: number }>(
    'SELECT * FROM webhook_alarms ORDER BY since, webhook_uid, kind',
  );
  const raise = db.prepare(
    'INSERT OR IGNORE INTO webhook_alarms (webhook_uid, kind, since) VALUES (?, ?, ?)',
  );
  const clear = db.prepare('DELETE FROM webhook_alarms WHERE webhook_uid = ? AND kind = ?');
  const notification = db.prepare<[string], { alarm_notification: string | null }>(
    'SELECT alarm_notification FROM factories WHERE id = ?',
  );
  const saveNotification = db.prepare('UPDATE factories SET alarm_notification = ? WHERE id = ?');
  const lastAccepted = db.prepare<[string], { received_at: number }>(
    "SELECT received_at FROM deliveries WHERE webhook_uid = ? AND label = 'Accepted' ORDER BY id DESC LIMIT 1",
  );
  const newestLabels = db.prepare<[string, number], { label: string }>(
    'SELECT label FROM deliveries WHERE webhook_uid = ? ORDER BY id DESC LIMIT ?',
  );

  return {
    /** Null when the webhook never had alarm settings saved (the defaults apply). */
    settings: (webhookUid: string): AlarmSettingsRecord | null => {
      const row = settings.get(webhookUid);
      return toAlarmSettings(webhookUid, row);
    },
    saveSettings: (record: AlarmSettingsRecord): void => {
      saveSettings.run(record);
    },
    raised: (): RaisedAlarm[] =>
      raised.all().map((r) => ({ webhookUid: r.webhook_uid, kind: r.kind, since: r.since })),
    raise: (alarm: RaisedAlarm): boolean =>
      raise.run(alarm.webhookUid, alarm.kind, alarm.since).changes === 1,
    clear: (webhookUid: string, kind: AlarmKind): boolean =>
      clear.run(webhookUid, kind).changes === 1,
    /**
     * Null: none set. A stored value that no longer parses throws, naming the fix, rather than
     * silently notifying no one.
     */
    notification: (factoryId: string): AlarmNotification | null => {
      const text = notification.get(factoryId)?.alarm_notification ?? null;
      if (text === null) return null;
      const parsed = alarmNotificationSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        throw new Error(
          `The alarm notification of factory "${factoryId}" is not valid; set it again.`,
        );
      }
      return parsed.data;
    },
    saveNotification: (factoryId: string, value: AlarmNotification | null): boolean =>
      saveNotification.run(value === null ? null : JSON.stringify(value), factoryId).changes === 1,
    lastAcceptedAt: (webhookUid: string): number | null =>
      lastAccepted.get(webhookUid)?.received_at ?? null,
    /** Labels of the newest `limit` entries, newest first. */
    newestLabels: (webhookUid: string, limit: number): string[] =>
      newestLabels.all(webhookUid, limit).map((r) => r.label),
  };
}
