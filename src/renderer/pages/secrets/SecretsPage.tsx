import { useState, type ReactNode } from 'react';
import type { TeamSecret } from '../../../shared/contract/secrets.js';
import { useClient } from '../../app/client-context.js';
import { useWriteBlock } from '../../app/relay-context.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { useToast } from '../../components/toasts.js';
import { BlockNote } from '../../components/Field.js';
import { CreateSecretDialog } from './CreateSecretDialog.js';
import { RotateSecretDialog } from './RotateSecretDialog.js';
import { SecretsTable } from './SecretsTable.js';
import './secrets.css';

type Open =
  | { kind: 'create' }
  | { kind: 'rotate'; secret: TeamSecret }
  | { kind: 'delete'; secret: TeamSecret }
  | null;

function DeleteSecretDialog({
  secret,
  backend,
  onClose,
}: {
  secret: TeamSecret;
  backend: string;
  onClose: () => void;
}): ReactNode {
  const client = useClient();
  const toast = useToast();
  return (
    <ConfirmDialog
      title={`Delete "${secret.name}"?`}
      confirmLabel="Delete"
      destructive
      onClose={onClose}
      onConfirm={async () => {
        await client.call('secrets.delete', { name: secret.name });
        toast('success', `Team secret "${secret.name}" deleted.`);
        onClose();
      }}
    >
      <p>
        Its value is removed from the {backend}. No webhook can use it afterwards, and this cannot
        be undone.
      </p>
    </ConfirmDialog>
  );
}

/** Team secrets: where values are kept, who uses each one; create, rotate, delete. */
export function SecretsPage(): ReactNode {
  const list = useCall('secrets.list', {}, onChanged('secrets', 'webhooks'));
  const writeBlock = useWriteBlock();
  const [open, setOpen] = useState<Open>(null);
  const close = (): void => setOpen(null);
  const secrets = list.data?.items ?? [];

  return (
    <section className="secrets-page" aria-labelledby="secrets-title">
      <header className="page-header">
        <h1 id="secrets-title">Secrets</h1>
        <span className="spacer" />
        <button
          type="button"
          className="primary"
          disabled={writeBlock !== null}
          title={writeBlock ?? undefined}
          onClick={() => setOpen({ kind: 'create' })}
        >
          Create secret
        </button>
      </header>
      <BlockNote reason={writeBlock} />
      {list.data && (
        <p className="backend-line">
          Secret values are kept in the <strong>{list.data.backendDescription}</strong>. The
          database holds only names, times and fingerprints; a value is shown once, when it is
          created or rotated.
        </p>
      )}
      <ErrorNote error={list.error} />
      {list.error && (
        <button type="button" onClick={list.reload}>
          Try again
        </button>
      )}
      {!list.data && !list.error && <p className="loading">Loading secrets…</p>}
      {list.data && secrets.length === 0 && (
        <p className="empty">
          No team secrets yet. Create one here, or add a webhook: it creates{' '}
          <code>webhook-&lt;name&gt;</code> for you.
        </p>
      )}
      {secrets.length > 0 && (
        <>
          <SecretsTable
            secrets={secrets}
            writeBlock={writeBlock}
            onRotate={(secret) => setOpen({ kind: 'rotate', secret })}
            onDelete={(secret) => setOpen({ kind: 'delete', secret })}
          />
          {secrets.some((s) => s.usedBy.length > 0) && (
            <p className="hint">
              A secret in use cannot be deleted: delete its webhooks or point them at another secret
              first. Rotating it switches every webhook that uses it at once.
            </p>
          )}
        </>
      )}
      {open?.kind === 'create' && <CreateSecretDialog onClose={close} />}
      {open?.kind === 'rotate' && <RotateSecretDialog secret={open.secret} onClose={close} />}
      {open?.kind === 'delete' && list.data && (
        <DeleteSecretDialog
          secret={open.secret}
          backend={list.data.backendDescription}
          onClose={close}
        />
      )}
    </section>
  );
}
