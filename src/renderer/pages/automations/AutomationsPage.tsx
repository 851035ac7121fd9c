import { useState, type ReactNode } from 'react';
import type { Automation } from '../../../shared/contract/automations.js';
import { routeHref } from '../../app/router.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { AutomationEditor } from './AutomationEditor.js';
import { AutomationList } from './AutomationList.js';
import './automations.css';

/**
 * Loads what the editor needs; an existing automation is read once per id, then edited.
 * Creating one moves to its own route but keeps the same editor (its open cards and Test
 * filter's delivery), fed the create answer until the read arrives.
 */
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
  const [created, setCreated] = useState<Automation>();
  // Each editor for a new automation gets its own key, so "New automation" after one was
  // created (say, by going Back) starts empty instead of reusing the created one's editor.
  // Only on arriving at "new": right after a create the route still says "new" until the
  // hashchange event comes, and that editor must stay (a loaded machine lost that race).
  const [session, setSession] = useState(0);
  const [routeId, setRouteId] = useState(id);
  if (id !== routeId) {
    setRouteId(id);
    if (id === null && created) {
      setCreated(undefined);
      setSession((s) => s + 1);
    }
  }
  const justCreated = created !== undefined && created.id === id;
  const current = automation.data ?? (justCreated ? created : undefined);
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
  if (!webhooks.data || (id !== null && !current)) {
    return <p className="loading">Loading…</p>;
  }
  return (
    <AutomationEditor
      key={id === null || justCreated ? `new-${session}` : id}
      automation={id === null ? undefined : current}
      webhooks={webhooks.data.items}
      initialDeliveryId={initialDeliveryId}
      onCreated={setCreated}
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
