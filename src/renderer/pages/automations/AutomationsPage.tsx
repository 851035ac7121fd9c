import type { ReactNode } from 'react';
import { routeHref } from '../../app/router.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { AutomationEditor } from './AutomationEditor.js';
import { AutomationList } from './AutomationList.js';
import './automations.css';

/** Loads what the editor needs; an existing automation is read once per id, then edited. */
function EditorRoute({
  id,
  initialDeliveryId,
}: {
  id: string | null;
  initialDeliveryId: string | undefined;
}): ReactNode {
  const webhooks = useCall('webhooks.list', {}, onChanged('webhooks'));
  const automation = useCall(
    'automations.get',
    id === null ? null : { id },
    onChanged('automations', 'webhooks'),
  );
  const error = webhooks.error ?? automation.error;
  if (error) {
    return (
      <>
        <p>
          <a href={routeHref('automations')}>← Automations</a>
        </p>
        <ErrorNote error={error} />
      </>
    );
  }
  if (!webhooks.data || (id !== null && !automation.data)) {
    return <p className="loading">Loading…</p>;
  }
  return (
    <AutomationEditor
      key={id ?? 'new'}
      automation={id === null ? undefined : automation.data}
      webhooks={webhooks.data.items}
      initialDeliveryId={initialDeliveryId}
    />
  );
}

/**
 * `#/automations` (list), `#/automations/new`, `#/automations/<id>`, and
 * `#/automations/<id>/test/<deliveryId>`: the editor with Test filter on that delivery.
 */
export function AutomationsPage({ route }: { route: string[] }): ReactNode {
  const [first, second, third] = route;
  if (first === undefined) return <AutomationList />;
  if (first === 'new') return <EditorRoute id={null} initialDeliveryId={undefined} />;
  return <EditorRoute id={first} initialDeliveryId={second === 'test' ? third : undefined} />;
}
