import { useId, useState, type ReactNode } from 'react';
import type { MethodOutput } from '../../../shared/contract/index.js';
import type { TeamSecret } from '../../../shared/contract/secrets.js';
import { useClient } from '../../app/client-context.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { DoneDialog } from '../../components/DoneDialog.js';
import { OneTimeValue } from '../../components/OneTimeValue.js';
import { useToast } from '../../components/toasts.js';
import { UsedByList } from './UsedByList.js';

type Revealed = MethodOutput<'secrets.rotate'>;

/** Names every webhook that switches at once, then shows the new value once. */
export function RotateSecretDialog({
  secret,
  onClose,
}: {
  secret: TeamSecret;
  onClose: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  const [value, setValue] = useState('');
  const [rotated, setRotated] = useState<Revealed>();
  const valueId = useId();

  if (rotated) {
    return (
      <DoneDialog title="Secret rotated" onClose={onClose}>
        <p>
          <strong>{rotated.secret.name}</strong> has a new value (fingerprint{' '}
          <code>{rotated.secret.fingerprint}</code>). The old value is refused from now on.
        </p>
        <OneTimeValue values={[{ label: 'Secret', value: rotated.value }]} />
      </DoneDialog>
    );
  }

  const users = secret.usedBy;
  return (
    <ConfirmDialog
      title={`Rotate "${secret.name}"?`}
      confirmLabel="Rotate"
      destructive
      onClose={onClose}
      onConfirm={async () => {
        const result = await client.call('secrets.rotate', {
          name: secret.name,
          ...(value === '' ? {} : { value }),
        });
        setRotated(result);
        toast('success', `Team secret "${result.secret.name}" rotated.`);
      }}
    >
      {users.length === 0 ? (
        <p>No webhook uses this secret yet.</p>
      ) : (
        <>
          <p>
            {users.length === 1
              ? '1 webhook switches to the new value at once:'
              : `${users.length} webhooks switch to the new value at once:`}
          </p>
          <UsedByList users={users} />
        </>
      )}
      <p>
        The old value gets 401 as soon as this returns; there is no overlap. Senders need the new
        value.
      </p>
      <div className="form">
        <label htmlFor={valueId}>New value</label>
        <input
          id={valueId}
          type="password"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="off"
          aria-describedby={`${valueId}-hint`}
        />
        <p id={`${valueId}-hint`} className="hint">
          Leave blank to generate one, unless a webhook above checks a provider&apos;s signature
          (GitHub, Stripe, …): then paste the new signing secret the provider issued.
        </p>
      </div>
    </ConfirmDialog>
  );
}
