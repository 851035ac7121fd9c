import { memo, useEffect, useId, useState, type ReactNode } from 'react';
import type { MethodInput } from '../../../shared/contract/index.js';
import { routeHref } from '../../app/router.js';
import { useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FilterVerdict } from '../../components/FilterVerdict.js';
import { FailingPaths } from './FailingPaths.js';
import { FilterLab } from './FilterLab.js';
import { formatTime } from '../../components/format.js';
import { blockingFilter, toTrigger, type TriggerCheck, type TriggerDraft } from './draft.js';
import { useDebounced } from './use-debounced.js';
import { useFormBodyRefusal } from './use-form-body-refusals.js';
import { useRecentDeliveries } from './use-recent-deliveries.js';
import { labelOf, type WebhookLabels } from './webhook-names.js';

const RETEST_MS = 300;

type TestInput = MethodInput<'automations.testFilter'>;

/** Why there is nothing to test yet, or null when the trigger and a delivery are ready. */
function notReady(
  trigger: TriggerDraft | undefined,
  check: TriggerCheck | undefined,
  index: number,
  deliveryId: string,
): string | null {
  if (!trigger || !check) return 'Add a trigger to test it.';
  if (trigger.webhookIds.length === 0)
    return 'Select a webhook under "Webhook received from" to list its deliveries.';
  const blocking = blockingFilter(check);
  if (blocking) return `Fix the ${blocking} of trigger ${index + 1} to test it.`;
  if (deliveryId === '') return 'Pick a stored delivery to test the trigger against.';
  return null;
}

/**
 * Test filter: the trigger as edited (saved or not) against a stored delivery of its webhooks,
 * tested again a moment after each change. Memoized: the editor renders it only when the draft
 * it was given (deferred) changes, never in the render of a key itself.
 */
export const TestFilterPanel = memo(function TestFilterPanel({
  triggers,
  checks,
  active,
  onActiveChange,
  labels,
  initialDeliveryId,
  saves,
}: {
  triggers: readonly TriggerDraft[];
  checks: readonly TriggerCheck[];
  active: number;
  onActiveChange: (index: number) => void;
  labels: WebhookLabels;
  initialDeliveryId: string | undefined;
  /** How many times the editor saved; each save tests the picked delivery again. */
  saves: number;
}): ReactNode {
  const headingId = useId();
  const triggerSelectId = useId();
  const deliverySelectId = useId();
  const [deliveryId, setDeliveryId] = useState(initialDeliveryId ?? '');
  const trigger = triggers[active];
  const check = checks[active];
  const recent = useRecentDeliveries(trigger?.webhookIds ?? []);
  const formBody = useFormBodyRefusal(trigger?.webhookIds ?? []);
  const reason = notReady(trigger, check, active, deliveryId);
  const built = trigger && check ? toTrigger(trigger, check) : null;
  const key = reason === null && built ? JSON.stringify({ trigger: built, deliveryId }) : null;
  const settled = useDebounced(key, RETEST_MS);
  const test = useCall(
    'automations.testFilter',
    settled === null ? null : (JSON.parse(settled) as TestInput),
  );
  const { reload } = test;
  // The saved trigger is what deliveries now meet: show its verdict, not only the draft's.
  useEffect(() => {
    if (saves > 0) reload();
  }, [saves, reload]);
  const items = recent.items ?? [];
  const picked = items.find((d) => d.id === deliveryId);
  const payload = test.data?.payloadCheck;
  // Shown dimmed while the edited trigger waits to be tested again.
  const stale = key !== settled || test.loading;

  return (
    <aside className="pane test-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Test filter</h2>
      <p className="hint">
        Would this trigger, as edited here (saved or not), start a run for a stored delivery?
      </p>
      <div className="form">
        {triggers.length > 1 && (
          <>
            <label htmlFor={triggerSelectId}>Trigger to test</label>
            <select
              id={triggerSelectId}
              value={active}
              onChange={(event) => onActiveChange(Number(event.target.value))}
            >
              {triggers.map((t, i) => (
                <option key={t.key} value={i}>
                  Trigger {i + 1}
                </option>
              ))}
            </select>
          </>
        )}
        <label htmlFor={deliverySelectId}>Stored delivery</label>
        <select
          id={deliverySelectId}
          value={deliveryId}
          onChange={(event) => setDeliveryId(event.target.value)}
        >
          <option value="">
            {recent.items === undefined && trigger?.webhookIds.length
              ? 'Loading deliveries…'
              : items.length === 0
                ? 'No accepted deliveries from the selected webhooks'
                : 'Pick a delivery…'}
          </option>
          {deliveryId !== '' && !picked && <option value={deliveryId}>{deliveryId}</option>}
          {items.map((d) => (
            <option key={d.id} value={d.id}>
              {`${d.summary ?? d.label} · ${formatTime(d.receivedAt)} · ${labelOf(labels, d.webhookUid)} · ${d.id}`}
            </option>
          ))}
        </select>
        <p className="hint">
          Recent Accepted deliveries of the selected webhooks, newest first. Only Accepted
          deliveries keep a payload.
          {picked && (
            <>
              {' '}
              <a href={routeHref('webhooks', picked.webhookUid, picked.id)}>
                Open it in Recent deliveries
              </a>
            </>
          )}
        </p>
        {formBody && (
          <p className="warning-note form-body-refusal" role="note">
            The newest refused delivery of {labelOf(labels, formBody.webhookUid)} was not JSON:{' '}
            {formBody.reason}.{' '}
            <a href={routeHref('webhooks', formBody.webhookUid, formBody.id)}>Open it</a>
          </p>
        )}
      </div>
      <ErrorNote error={recent.error} />
      {reason !== null ? (
        <p className="muted test-reason">{reason}</p>
      ) : (
        // Only a previous verdict is dimmed: "Testing…" dimmed fell below WCAG's contrast.
        <div className={stale && test.data ? 'test-result stale' : 'test-result'} aria-busy={stale}>
          <ErrorNote error={test.error} />
          {test.data && <FilterVerdict result={test.data} />}
          {payload && !payload.passed && <FailingPaths failures={payload.failures} />}
          {test.data && !test.data.headerCheck.passed && (
            <FailingPaths failures={test.data.headerCheck.failures} of="headers" />
          )}
          {!test.data && !test.error && <p className="loading">Testing…</p>}
        </div>
      )}
      <FilterLab
        trigger={built && trigger && trigger.webhookIds.length > 0 ? built : null}
        picked={deliveryId}
        onOpen={setDeliveryId}
      />
    </aside>
  );
});
