import { useState, type ReactNode } from 'react';
import type { MethodOutput } from '../../../shared/contract/index.js';
import { useFormAction } from '../../app/use-action.js';
import { useClient } from '../../app/client-context.js';
import { Dialog } from '../../components/Dialog.js';
import { DoneDialog } from '../../components/DoneDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { OneTimeValue } from '../../components/OneTimeValue.js';
import { useToast } from '../../components/toasts.js';
import { errorAt, TextField, unclaimed } from '../../components/Field.js';
import { checkTokenName } from './settings-check.js';
import { DialogActions } from '../../components/DialogActions.js';

type Role = 'manage' | 'view';
const ROLE_TEXT: Record<Role, string> = {
  manage: 'manage: everything, including tokens and secrets',
  view: 'view: reads only; every change is refused (403)',
};

/** Name and role; then the token's value, once. */
export function CreateTokenDialog({ onClose }: { onClose: () => void }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('view');
  const [created, setCreated] = useState<MethodOutput<'tokens.create'>>();

  const live = checkTokenName(name, role);
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    const result = await client.call('tokens.create', { name, role });
    setCreated(result);
    toast('success', `Token "${result.token.name}" (${result.token.role}) created.`);
  }, [name, role]);
  const error = refused ?? live.typing;

  if (created) {
    return (
      <DoneDialog title="Token created" onClose={onClose}>
        <p>
          <strong>{created.token.name}</strong> has the <strong>{created.token.role}</strong> role.
          Send it as <code>Authorization: Bearer …</code>, or sign in to the UI with it.
        </p>
        <OneTimeValue
          values={[{ label: 'API token', value: created.value }]}
          warning="You will not see this token again. Copy it now."
        />
      </DoneDialog>
    );
  }

  return (
    <Dialog title="Create token" onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Name"
          hint="Says who or what uses it, e.g. ci-dashboard."
          error={errorAt(error, 'name')}
          value={name}
          onChange={setName}
        />
        <fieldset>
          <legend>Role</legend>
          {(['view', 'manage'] as const).map((option) => (
            <div className="check-row" key={option}>
              <label>
                <input
                  type="radio"
                  name="token-role"
                  value={option}
                  checked={role === option}
                  onChange={() => setRole(option)}
                />{' '}
                {ROLE_TEXT[option]}
              </label>
            </div>
          ))}
        </fieldset>
        <ErrorNote error={unclaimed(error, ['name'])} />
        <DialogActions
          submitLabel="Create"
          onCancel={onClose}
          disabled={busy || name.trim() === '' || live.typing !== undefined}
        />
      </form>
    </Dialog>
  );
}
