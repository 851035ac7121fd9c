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
import { contract } from '../../../shared/contract/index.js';
import { checkInput } from '../../components/live-check.js';
import { DialogActions } from '../../components/DialogActions.js';

type Revealed = MethodOutput<'secrets.create'>;

/** Name and an optional value; then the value, once. It lives only in this dialog's state. */
export function CreateSecretDialog({ onClose }: { onClose: () => void }): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [created, setCreated] = useState<Revealed>();

  // The relay's own rule for secrets.create, said under the field as it is typed.
  const live = checkInput(
    contract['secrets.create'].input,
    { name: name.trim(), ...(value === '' ? {} : { value }) },
    { name: 'The name', value: 'The value' },
  );
  const {
    onSubmit,
    busy,
    error: refused,
  } = useFormAction(async () => {
    const result = await client.call('secrets.create', {
      name: name.trim(),
      ...(value === '' ? {} : { value }),
    });
    setCreated(result);
    toast('success', `Team secret "${result.secret.name}" created.`);
  }, [name, value]);
  const error = refused ?? live.typing;

  if (created) {
    return (
      <DoneDialog title="Secret created" onClose={onClose}>
        <p>
          Team secret <strong>{created.secret.name}</strong>, fingerprint{' '}
          <code>{created.secret.fingerprint}</code>. Give it to a webhook as its secret name.
        </p>
        <OneTimeValue values={[{ label: 'Secret', value: created.value }]} />
      </DoneDialog>
    );
  }

  return (
    <Dialog title="Create secret" onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <TextField
          label="Name"
          hint='Letters, digits, ".", "_" or "-"; webhooks refer to the secret by this name.'
          error={errorAt(error, 'name')}
          value={name}
          onChange={setName}
          spellCheck={false}
          required
        />
        <TextField
          label="Value"
          hint="Optional: leave blank to generate one. Paste a provider's signing secret here."
          error={errorAt(error, 'value')}
          type="password"
          value={value}
          onChange={setValue}
        />
        <ErrorNote error={unclaimed(error, ['name', 'value'])} />
        <DialogActions
          submitLabel="Create"
          onCancel={onClose}
          disabled={busy || name.trim() === '' || live.typing !== undefined}
        />
      </form>
    </Dialog>
  );
}
