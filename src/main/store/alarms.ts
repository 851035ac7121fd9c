import type { AlarmKind, AlarmNotification } from '../../shared/contract/alarms.js';

export interface AlarmSettingsRecord {
  webhookUid: string;
  expectedEveryMinutes: number | null;
  /** When the cadence was last set: a quiet spell counts from then at the earliest. */
  cadenceSetAt: number;
  authFailureStreak: number | null;
}

/** A webhook_alarm_settings row, as both stores read it. */
export interface AlarmSettingsRow {
  expected_every_minutes: number | null;
  cadence_set_at: number;
  auth_failure_streak: number | null;
}

/** Null when the webhook never had alarm settings saved (the defaults apply). */
export const toAlarmSettings = (
  webhookUid: string,
  row: AlarmSettingsRow | undefined,
): AlarmSettingsRecord | null =>
  row
    ? {
        webhookUid,
        expectedEveryMinutes: row.expected_every_minutes,
        cadenceSetAt: row.cadence_set_at,
        authFailureStreak: row.auth_failure_streak,
      }
    : null;

export interface RaisedAlarm {
  webhookUid: string;
  kind: AlarmKind;
  since: number;
}

/** Alarm settings per webhook, the alarms raised now, and how each factory is notified. */
export interface AlarmsRepository {
  /** Null when the webhook never had alarm settings saved (the defaults apply). */
  settings(webhookUid: string): Promise<AlarmSettingsRecord | null>;
  saveSettings(record: AlarmSettingsRecord): Promise<void>;
  raised(): Promise<RaisedAlarm[]>;
  /** False when it was raised already. */
  raise(alarm: RaisedAlarm): Promise<boolean>;
  clear(webhookUid: string, kind: AlarmKind): Promise<boolean>;
  /**
   * Null: none set. A stored value that no longer parses throws, naming the fix, rather than
   * silently notifying no one.
   */
  notification(factoryId: string): Promise<AlarmNotification | null>;
  saveNotification(factoryId: string, value: AlarmNotification | null): Promise<boolean>;
  lastAcceptedAt(webhookUid: string): Promise<number | null>;
  /** Labels of the newest `limit` entries, newest first. */
  newestLabels(webhookUid: string, limit: number): Promise<string[]>;
}
