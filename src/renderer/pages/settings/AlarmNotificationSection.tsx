import { useState, type ReactNode } from 'react';
import type { AlarmNotification } from '../../../shared/contract/alarms.js';
import { useClient } from '../../app/client-context.js';
import { useFormAction } from '../../app/use-action.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { errorAt, Field, TextField, unclaimed } from '../../components/Field.js';
import { useToast } from '../../components/toasts.js';
import { SaveRow } from './SaveRow.js';

type Kind = 'none' | 'command' | 'http';
const KIND_TEXT: Record<Kind, string> = {
  none: 'Not at all',
  command: 'Run a command',
  http: 'POST to a URL',
};

interface Draft {
  kind: Kind;
  command: string;
  args: string;
  url: string;
}

const draftOf = (n: AlarmNotification | null): Draft => ({
  kind: n?.kind ?? 'none',
  command: n?.kind === 'command' ? n.command : '',
  args: n?.kind === 'command' ? n.args.join('\n') : '',
  url: n?.kind === 'http' ? n.url : '',
});

function notificationOf(draft: Draft): AlarmNotification | null {
  if (draft.kind === 'none') return null;
  if (draft.kind === 'http') return { kind: 'http', url: draft.url.trim(), timeoutSeconds: 10 };
  const args = draft.args.split('\n').filter((line) => line !== '');
  return { kind: 'command', command: draft.command.trim(), args, timeoutSeconds: 30 };
}

function NotificationForm({
  current,
  writeBlock,
}: {
  current: AlarmNotification | null;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(current));
  const set = (changes: Partial<Draft>): void => setDraft((d) => ({ ...d, ...changes }));
  const { onSubmit, busy, error } = useFormAction(async () => {
    const saved = await client.call('factories.setAlarmNotification', {
      id: 'default',
      notification: notificationOf(draft),
    });
    toast(
      'success',
      saved.notification === null
        ? 'Alarms notify no one; they still show on the webhook and in the status line.'
        : `Alarms notify: ${KIND_TEXT[saved.notification.kind].toLowerCase()}.`,
    );
  }, draft);

  return (
    <form className="form settings-form" onSubmit={onSubmit} noValidate>
      <fieldset className="bare" disabled={writeBlock !== null}>
        <fieldset>
          <legend>When an alarm is raised or ends</legend>
          <div className="radio-row">
            {(Object.keys(KIND_TEXT) as Kind[]).map((kind) => (
              <label key={kind}>
                <input
                  type="radio"
                  name="alarm-notification-kind"
                  checked={draft.kind === kind}
                  onChange={() => set({ kind })}
                />{' '}
                {KIND_TEXT[kind]}
              </label>
            ))}
          </div>
        </fieldset>
        {draft.kind === 'command' && (
          <div className="executor-fields">
            <TextField
              label="Command"
              hint="Runs without a shell; the notice arrives as JSON on stdin and in HOOKPORT_ALARM_EVENT, _KIND, _WEBHOOK_UID, _WEBHOOK_NAME and _MESSAGE."
              error={errorAt(error, 'notification.command')}
              value={draft.command}
              onChange={(command) => set({ command })}
              spellCheck={false}
            />
            <Field
              label="Arguments"
              hint="One argument per line, passed as given."
              error={errorAt(error, 'notification.args')}
            >
              {(control) => (
                <textarea
                  {...control}
                  rows={3}
                  value={draft.args}
                  spellCheck={false}
                  onChange={(event) => set({ args: event.target.value })}
                />
              )}
            </Field>
          </div>
        )}
        {draft.kind === 'http' && (
          <TextField
            label="URL"
            hint='Gets a JSON POST: {"event":"alarm"|"recovery","kind":"quiet"|"auth","webhook":{…},"since","at","message"}. Network errors and 5xx are tried 3 times.'
            error={errorAt(error, 'notification.url')}
            value={draft.url}
            onChange={(url) => set({ url })}
            placeholder="https://chat.example.com/hooks/alerts"
            spellCheck={false}
          />
        )}
        <SaveRow
          what="alarm notification"
          busy={busy}
          writeBlock={writeBlock}
          error={unclaimed(error, [
            'notification.command',
            'notification.args',
            'notification.url',
          ])}
        />
      </fieldset>
    </form>
  );
}

/** How the default factory hears of alarms: not at all, a command, or an HTTP POST. */
export function AlarmNotificationSection({ writeBlock }: { writeBlock: string | null }): ReactNode {
  const current = useCall('factories.alarmNotification', { id: 'default' }, onChanged('settings'));
  const data = current.data;
  return (
    <section className="settings-section" aria-labelledby="alarm-notification-title">
      <h2 id="alarm-notification-title">Alarm notifications</h2>
      <p className="muted">
        A webhook raises an alarm when it goes quiet past its expected cadence, or when its newest
        deliveries are all Rejected (auth) (set on the webhook). Each episode notifies once, and
        once more when it ends.
      </p>
      <ErrorNote error={current.error} />
      {!data && !current.error && <p className="loading">Loading…</p>}
      {data && (
        <NotificationForm
          key={JSON.stringify(data.notification)}
          current={data.notification}
          writeBlock={writeBlock}
        />
      )}
    </section>
  );
}
