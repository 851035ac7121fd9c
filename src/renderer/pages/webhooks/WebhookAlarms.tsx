import { useState, type ReactNode } from 'react';
import type { AlarmKind, AlarmSettings } from '../../../shared/contract/alarms.js';
import { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { useFormAction } from '../../app/use-action.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';
import { formatCount } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { cadenceText } from './words.js';

const ALARM_TITLES: Record<AlarmKind, string> = {
  quiet: 'Quiet',
  auth: 'Rejected (auth)',
  link: 'Provider link',
};

const UNITS = { minutes: 1, hours: 60, days: 1440 } as const;
type Unit = keyof typeof UNITS;

function unitOf(minutes: number | null): Unit {
  if (minutes !== null && minutes % 1440 === 0) return 'days';
  if (minutes !== null && minutes % 60 === 0) return 'hours';
  return minutes === null ? 'hours' : 'minutes';
}

/** Blank is "off"; otherwise a whole number, or the field's error. */
function wholeOrNull(text: string, path: string): number | null {
  if (text.trim() === '') return null;
  if (!/^\s*\d+\s*$/.test(text))
    throw new ApiError('invalid_input', `${path}: must be a whole number`, path);
  return Number(text);
}

function AlarmForm({ settings, uid }: { settings: AlarmSettings; uid: string }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const blocked = useWriteBlock();
  const [unit, setUnit] = useState<Unit>(unitOf(settings.expectedEveryMinutes));
  const [every, setEvery] = useState(
    settings.expectedEveryMinutes === null
      ? ''
      : String(settings.expectedEveryMinutes / UNITS[unit]),
  );
  const [streak, setStreak] = useState(
    settings.authFailureStreak === null ? '' : String(settings.authFailureStreak),
  );
  const { onSubmit, busy, error } = useFormAction(async () => {
    const count = wholeOrNull(every, 'expectedEveryMinutes');
    const saved = await client.call('webhooks.setAlarms', {
      uid,
      expectedEveryMinutes: count === null ? null : count * UNITS[unit],
      authFailureStreak: wholeOrNull(streak, 'authFailureStreak'),
    });
    toast(
      'success',
      `Alarms saved: ${saved.expectedEveryMinutes === null ? 'no expected cadence' : `expect a delivery ${cadenceText(saved.expectedEveryMinutes)}`}; ${saved.authFailureStreak === null ? 'no Rejected (auth) alarm' : `alarm after ${formatCount(saved.authFailureStreak)} Rejected (auth) in a row`}.`,
    );
  }, [every, unit, streak]);

  return (
    <form className="form alarm-form" onSubmit={onSubmit} noValidate>
      <fieldset className="bare" disabled={blocked !== null}>
        <div className="field-pair">
          <div className="cadence-field">
            <TextField
              label="Expect an accepted delivery at least every"
              hint="Blank: no alarm when it goes quiet."
              error={errorAt(error, 'expectedEveryMinutes')}
              type="number"
              min={1}
              value={every}
              onChange={setEvery}
            />
            <select
              aria-label="Unit"
              value={unit}
              onChange={(event) => setUnit(event.target.value as Unit)}
            >
              {Object.keys(UNITS).map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Alarm when this many newest deliveries are all Rejected (auth)"
            hint="Blank: never. A sender still signing with a rotated secret looks like this."
            error={errorAt(error, 'authFailureStreak')}
            type="number"
            min={1}
            value={streak}
            onChange={setStreak}
          />
        </div>
        <ErrorNote error={unclaimed(error, ['expectedEveryMinutes', 'authFailureStreak'])} />
        <div className="actions">
          <button
            type="submit"
            className="primary"
            disabled={busy}
            title={blocked ?? undefined}
            aria-label="Save alarms"
          >
            Save
          </button>
          {blocked && <span className="hint">{blocked}</span>}
        </div>
      </fieldset>
    </form>
  );
}

/**
 * The webhook's alarms: what is raised now, said plainly at the top of its pane, and the
 * settings (expected cadence, Rejected (auth) streak) behind a disclosure.
 */
export function WebhookAlarms({ uid }: { uid: string }): ReactNode {
  const alarms = useCall('alarms.list', {}, onChanged('alarms', 'webhooks'));
  const settings = useCall('webhooks.alarms', { uid }, onChanged('alarms'));
  const raised = alarms.data?.items.filter((a) => a.webhookUid === uid) ?? [];
  const data = settings.data;
  const summary = data
    ? [
        data.expectedEveryMinutes === null
          ? 'no expected cadence'
          : `expect a delivery ${cadenceText(data.expectedEveryMinutes)}`,
        data.authFailureStreak === null
          ? 'no Rejected (auth) alarm'
          : `after ${formatCount(data.authFailureStreak)} Rejected (auth) in a row`,
      ].join(' · ')
    : '…';
  return (
    <>
      {raised.map((alarm) => (
        <p key={alarm.kind} className="warning-note alarm-note" role="status">
          <strong>{ALARM_TITLES[alarm.kind]}:</strong> {alarm.message}{' '}
          <span className="muted">
            Since{' '}
            {new Date(alarm.since).toLocaleString(undefined, {
              dateStyle: 'medium',
              timeStyle: 'short',
            })}
            .
          </span>
        </p>
      ))}
      <details className="webhook-alarms">
        <summary>Alarms: {summary}</summary>
        <ErrorNote error={settings.error} />
        {data && (
          <AlarmForm
            key={`${data.expectedEveryMinutes}/${data.authFailureStreak}`}
            settings={data}
            uid={uid}
          />
        )}
      </details>
    </>
  );
}
