import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useClient } from '../../app/client-context.js';
import { onChanged, toApiError, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { FilterVerdict } from '../../components/FilterVerdict.js';
import type { TestFilterResult } from '../../../shared/contract/automations.js';
import type { ApiError } from '../../../shared/errors.js';
import type { Automation, Webhook } from './types.js';

/** The trigger Test filter should try: the one that selects this webhook, else the first. */
function triggerFor(automation: Automation, uid: string) {
  return (
    automation.triggers.find((trigger) => trigger.filter.webhook_ids.includes(uid)) ??
    automation.triggers[0]
  );
}

const selects = (automation: Automation, uid: string): boolean =>
  automation.triggers.some((trigger) => trigger.filter.webhook_ids.includes(uid));

/** Test against an automation: would its trigger have started a run for this delivery? */
export function TestAgainstAutomation({
  webhook,
  deliveryId,
}: {
  webhook: Webhook;
  deliveryId: string;
}): ReactNode {
  const id = useId();
  const client = useClient();
  const automations = useCall(
    'automations.list',
    { factory: webhook.factory },
    onChanged('automations'),
  );
  const [chosen, setChosen] = useState('');
  const [result, setResult] = useState<TestFilterResult>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  // Those that select this webhook first: they are the ones a delivery from it can start.
  const items = [...(automations.data?.items ?? [])].sort(
    (a, b) =>
      Number(selects(b, webhook.uid)) - Number(selects(a, webhook.uid)) ||
      a.name.localeCompare(b.name),
  );
  const automation = items.find((a) => a.id === chosen);
  // The answer appears where the click was: scrolled into view, so a click never looks ignored.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result || error) outcome.current?.scrollIntoView({ block: 'nearest' });
  }, [result, error]);

  const test = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setResult(undefined);
    setError(undefined);
    const trigger = automation && triggerFor(automation, webhook.uid);
    if (!trigger) return;
    setBusy(true);
    try {
      setResult(await client.call('automations.testFilter', { trigger, deliveryId }));
    } catch (failure) {
      setError(toApiError(failure));
    } finally {
      setBusy(false);
    }
  };

  if (automations.data && items.length === 0) {
    return (
      <p className="hint">
        No automation to test against yet: create one on the Automations page with “Webhook received
        from” {webhook.name}.
      </p>
    );
  }
  return (
    <form className="test-against" onSubmit={(event) => void test(event)}>
      <div className="test-against-row">
        <label htmlFor={`${id}-automation`}>Automation</label>
        <select
          id={`${id}-automation`}
          value={chosen}
          onChange={(event) => {
            setChosen(event.target.value);
            setResult(undefined);
            setError(undefined);
          }}
        >
          <option value="">Choose an automation…</option>
          {items.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
              {selects(a, webhook.uid) ? '' : ' (does not select this webhook)'}
            </option>
          ))}
        </select>
        <button
          type="submit"
          disabled={busy || !automation || !triggerFor(automation, webhook.uid)}
        >
          Test filter
        </button>
      </div>
      {automation && !triggerFor(automation, webhook.uid) && (
        <p className="hint">{automation.name} has no trigger to test.</p>
      )}
      <div ref={outcome} className="test-against-outcome" aria-live="polite">
        <ErrorNote error={error ?? automations.error} />
        {result && <FilterVerdict result={result} />}
      </div>
    </form>
  );
}
