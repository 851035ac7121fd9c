import { useDeferredValue, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { DELETED_WEBHOOK_WARNING, type Automation } from '../../../shared/contract/automations.js';
import type { Webhook } from '../../../shared/contract/webhooks.js';
import type { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { useRelay, useWriteBlock } from '../../app/relay-context.js';
import { navigate, routeHref } from '../../app/router.js';
import { useUnsavedGuard } from './use-unsaved-guard.js';
import { toApiError } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useToast } from '../../components/toasts.js';
import {
  blockingFilter,
  buildDraft,
  isDirty,
  toDraft,
  triggerIndexOf,
  type Draft,
} from './draft.js';
import { EditorFields } from './EditorFields.js';
import { missingField, plainSaveError, saveSummary } from './save-error.js';
import { checkEditorFields, typingBlock } from './editor-check.js';
import { TestFilterPanel } from './TestFilterPanel.js';
import { TriggerList } from './TriggerList.js';
import { deletedWebhookNote, webhookLabels } from './webhook-names.js';

/** The file a managed factory's automation lives in, for the "edit this file" notice. */
function definitionFile(dir: string | null, automation: Automation | undefined): string {
  const file = automation?.sourceFile ?? `automations/${automation?.name ?? '<name>'}.md`;
  return dir ? `${dir.replace(/[\\/]$/, '')}/${file}` : file;
}

/** Name, prompt, enabled and triggers, with Test filter beside them; new or existing. */
export function AutomationEditor({
  automation,
  webhooks,
  initialDeliveryId,
  onCreated,
}: {
  automation: Automation | undefined;
  webhooks: readonly Webhook[];
  initialDeliveryId: string | undefined;
  /** Called before moving to the new automation's route, which keeps this editor. */
  onCreated: (automation: Automation) => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const { factory } = useRelay();
  const [draft, setDraft] = useState<Draft>(() => toDraft(automation));
  const [open, setOpen] = useState<ReadonlySet<number>>(
    () => new Set(draft.triggers.slice(0, 1).map((t) => t.key)),
  );
  const [active, setActive] = useState(0);
  const [saveError, setSaveError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [saves, setSaves] = useState(0);

  const file = definitionFile(factory.definitionsDir, automation);
  const managedReason = factory.managed
    ? `This factory is managed by definition files: edit ${file} instead.`
    : null;
  const writeBlock = useWriteBlock(managedReason);
  const readOnly = writeBlock !== null;
  const built = buildDraft(draft);
  const dirty = automation ? isDirty(built, automation) : true;
  // A new automation counts as edited once anything was typed or picked.
  const edited = automation
    ? dirty
    : draft.name.trim() !== '' ||
      draft.prompt.trim() !== '' ||
      draft.triggers.some(
        (t) => t.webhookIds.length > 0 || t.filterText.trim() !== '' || t.headerText.trim() !== '',
      );
  const letLeave = useUnsavedGuard(
    edited && !readOnly,
    routeHref('automations', automation?.id ?? 'new'),
  );
  const activeIndex = Math.min(active, Math.max(0, draft.triggers.length - 1));
  const labels = useMemo(
    () => webhookLabels(webhooks, automation?.webhooks),
    [webhooks, automation?.webhooks],
  );
  // Test filter and its lab follow the draft a beat behind: a key renders the editor at once,
  // and the panel (a verdict, 40 deliveries, the lab's table) in a render React may interrupt.
  const testedDraft = useDeferredValue(draft);
  const testedChecks = useMemo(() => buildDraft(testedDraft).checks, [testedDraft]);
  const deletedNote = automation ? deletedWebhookNote(automation, labels) : null;
  // The API's deleted-webhook warning names UIDs; deletedNote says the same by name.
  const otherWarnings = (automation?.warnings ?? []).filter(
    (w) => !w.startsWith(DELETED_WEBHOOK_WARNING),
  );
  const fieldError =
    saveError?.path === 'name' ||
    saveError?.path === 'prompt' ||
    triggerIndexOf(saveError?.path) !== null;
  const typing = checkEditorFields(draft).typing;
  const saveBlock =
    writeBlock ??
    typingBlock(typing) ??
    (built.blockedBy !== null
      ? `Fix the ${blockingFilter(built.checks[built.blockedBy]!) ?? 'filter'} of trigger ${built.blockedBy + 1} before saving.`
      : null);

  const change = (changes: Partial<Draft>): void => setDraft((d) => ({ ...d, ...changes }));
  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!built.input || saveBlock !== null) return;
    const missing = missingField(draft) ?? checkEditorFields(draft).submit ?? null;
    if (missing) {
      setSaveError(missing);
      return;
    }
    setBusy(true);
    setSaveError(undefined);
    try {
      if (automation) {
        const saved = await client.call('automations.update', {
          id: automation.id,
          ...built.input,
        });
        toast('success', `Saved automation ${saved.name}.`);
        setSaves((n) => n + 1);
      } else {
        const created = await client.call('automations.create', built.input);
        toast('success', `Created automation ${created.name}.`);
        setSaves((n) => n + 1);
        onCreated(created);
        letLeave();
        navigate('automations', created.id);
      }
    } catch (failure) {
      setSaveError(plainSaveError(toApiError(failure), draft.triggers, labels));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (): Promise<void> => {
    if (!automation) return;
    await client.call('automations.delete', { id: automation.id });
    toast('success', `Deleted automation ${automation.name}.`);
    navigate('automations');
  };

  return (
    <>
      <div className="page-header">
        <a href={routeHref('automations')}>← Automations</a>
        <h1>{automation ? automation.name : 'New automation'}</h1>
        {automation?.deletedWebhookUids.length ? (
          <span className="badge badge-warning">points at a deleted webhook</span>
        ) : null}
        <span className="spacer" />
        {automation && dirty && !readOnly && <span className="muted">Unsaved changes</span>}
      </div>
      {writeBlock && <p className="warning-note">{writeBlock}</p>}
      {deletedNote && <p className="warning-note">{deletedNote}</p>}
      {otherWarnings.map((warning) => (
        <p key={warning} className="warning-note">
          This automation {warning}.
        </p>
      ))}
      <div className="editor-layout">
        <form
          className="pane form editor-form"
          aria-label="Automation"
          noValidate
          onSubmit={(event) => void save(event)}
        >
          <EditorFields
            draft={draft}
            readOnly={readOnly}
            error={saveError}
            typing={typing}
            onChange={change}
          />
          <TriggerList
            triggers={draft.triggers}
            checks={built.checks}
            open={open}
            webhooks={webhooks}
            labels={labels}
            readOnly={readOnly}
            error={saveError}
            onOpenChange={(key, isOpen, index) => {
              setOpen((keys) => {
                const next = new Set(keys);
                if (isOpen) next.add(key);
                else next.delete(key);
                return next;
              });
              if (isOpen) setActive(index);
            }}
            onChange={(triggers) => change({ triggers })}
          />
          {saveError && !fieldError && <ErrorNote error={saveError} />}
          {saveError && fieldError && (
            <p className="error-note" role="alert">
              Not saved: {saveSummary(saveError)}
            </p>
          )}
          {saveBlock && !writeBlock && <p className="warning-note">{saveBlock}</p>}
          <div className="actions">
            <button
              type="submit"
              className="primary"
              disabled={busy || saveBlock !== null}
              title={saveBlock ?? undefined}
            >
              Save
            </button>
            {automation && (
              <button
                type="button"
                className="danger"
                disabled={writeBlock !== null}
                title={writeBlock ?? undefined}
                onClick={() => setConfirmDelete(true)}
              >
                Delete
              </button>
            )}
          </div>
        </form>
        <TestFilterPanel
          key={initialDeliveryId}
          triggers={testedDraft.triggers}
          checks={testedChecks}
          active={activeIndex}
          onActiveChange={setActive}
          labels={labels}
          initialDeliveryId={initialDeliveryId}
          saves={saves}
        />
      </div>
      {confirmDelete && automation && (
        <ConfirmDialog
          title={`Delete automation ${automation.name}?`}
          confirmLabel="Delete automation"
          destructive
          onConfirm={remove}
          onClose={() => setConfirmDelete(false)}
        >
          <p>
            Its queued runs will fail and no new runs will start. Finished runs stay readable on the
            Runs page.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
