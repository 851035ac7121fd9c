import { useState, type ReactNode } from 'react';
import {
  RETENTION_MIN_DAYS,
  RETENTION_MIN_PER_WEBHOOK,
  type Settings,
} from '../../../shared/contract/relay.js';
import { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useFormAction } from '../../app/use-action.js';
import { useToast } from '../../components/toasts.js';
import { SaveRow } from './SaveRow.js';
import { checkRetention } from './settings-check.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';

function whole(text: string, path: string): number {
  if (!/^\s*\d+\s*$/.test(text)) {
    throw new ApiError('invalid_input', `${path}: must be a whole number`, path);
  }
  return Number(text);
}

/** Deliveries kept: every one of the last N days and at least the newest M per webhook. */
export function RetentionSection({
  settings,
  writeBlock,
}: {
  settings: Settings;
  writeBlock: string | null;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [days, setDays] = useState(String(settings.retentionDays));
  const [perWebhook, setPerWebhook] = useState(String(settings.retentionMinPerWebhook));

  const live = checkRetention(days, perWebhook);
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    if (live.submit) throw live.submit;
    const saved = await client.call('settings.update', {
      retentionDays: whole(days, 'retentionDays'),
      retentionMinPerWebhook: whole(perWebhook, 'retentionMinPerWebhook'),
    });
    toast(
      'success',
      `Retention saved: ${saved.retentionDays} days, at least ${saved.retentionMinPerWebhook} per webhook.`,
    );
  }, [days, perWebhook]);
  const error = refused ?? live.typing;

  return (
    <section className="settings-section" aria-labelledby="retention-title">
      <h2 id="retention-title">Retention</h2>
      <p className="muted">
        Every delivery of the last {settings.retentionDays} days is kept, and at least the newest{' '}
        {settings.retentionMinPerWebhook} per webhook however old; older ones are pruned hourly.
        Both can only be raised above the minimum.
      </p>
      <form className="form settings-form" onSubmit={onSubmit} noValidate>
        <fieldset className="bare" disabled={writeBlock !== null}>
          <div className="field-pair">
            <TextField
              label="Keep deliveries for (days)"
              hint={`At least ${RETENTION_MIN_DAYS} days.`}
              error={errorAt(error, 'retentionDays')}
              type="number"
              min={RETENTION_MIN_DAYS}
              value={days}
              onChange={setDays}
            />
            <TextField
              label="Keep at least the newest (per webhook)"
              hint={`At least ${RETENTION_MIN_PER_WEBHOOK}.`}
              error={errorAt(error, 'retentionMinPerWebhook')}
              type="number"
              min={RETENTION_MIN_PER_WEBHOOK}
              value={perWebhook}
              onChange={setPerWebhook}
            />
          </div>
          <SaveRow
            what="retention"
            busy={busy}
            writeBlock={writeBlock}
            error={unclaimed(error, ['retentionDays', 'retentionMinPerWebhook'])}
            blocked={live.typing && 'Fix the number marked above first.'}
          />
        </fieldset>
      </form>
    </section>
  );
}
