import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import type { apiTokenSchema } from '../../../shared/contract/tokens.js';
import { useClient } from '../../app/client-context.js';
import { useRelay } from '../../app/relay-context.js';
import { onChanged, useCall } from '../../app/use-call.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { ErrorNote } from '../../components/ErrorNote.js';
import { formatAgo, formatTime } from '../../components/format.js';
import { useToast } from '../../components/toasts.js';
import { CreateTokenDialog } from './CreateTokenDialog.js';

type ApiToken = z.infer<typeof apiTokenSchema>;

function RevokeDialog({ token, onClose }: { token: ApiToken; onClose: () => void }): ReactNode {
  const client = useClient();
  const toast = useToast();
  return (
    <ConfirmDialog
      title={`Revoke "${token.name}"?`}
      confirmLabel="Revoke"
      destructive
      onClose={onClose}
      onConfirm={async () => {
        await client.call('tokens.delete', { id: token.id });
        toast('success', `Token "${token.name}" revoked.`);
        onClose();
      }}
    >
      <p>
        Anything using it gets 401 at once, and every browser signed in with it is signed out at
        once (its session ends with the token).
      </p>
    </ConfirmDialog>
  );
}

function TokensTable({
  tokens,
  onRevoke,
}: {
  tokens: ApiToken[];
  onRevoke: (token: ApiToken) => void;
}): ReactNode {
  return (
    <table className="table settings-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Role</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <td>{token.name}</td>
            <td>{token.role}</td>
            <td>
              <time dateTime={token.createdAt}>{formatTime(token.createdAt)}</time>
            </td>
            <td>
              {token.lastUsedAt === null ? (
                <span className="muted">never</span>
              ) : (
                <time dateTime={token.lastUsedAt} title={token.lastUsedAt}>
                  {formatAgo(token.lastUsedAt)}
                </time>
              )}
            </td>
            <td className="row-actions">
              <button
                type="button"
                className="danger"
                aria-label={`Revoke ${token.name}`}
                onClick={() => onRevoke(token)}
              >
                Revoke
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Admin API tokens (manage only): who may call the API, with which role. */
export function TokensSection(): ReactNode {
  const { canManage } = useRelay();
  const list = useCall('tokens.list', canManage ? {} : null, onChanged('tokens'));
  const [open, setOpen] = useState<{ kind: 'create' } | { kind: 'revoke'; token: ApiToken }>();
  const close = (): void => setOpen(undefined);
  const tokens = list.data?.items ?? [];

  return (
    <section className="settings-section" aria-labelledby="tokens-title">
      <div className="section-header">
        <h2 id="tokens-title">Tokens</h2>
        {canManage && (
          <button type="button" onClick={() => setOpen({ kind: 'create' })}>
            Create token
          </button>
        )}
      </div>
      {!canManage ? (
        <p className="hint block-note">
          Tokens need the &quot;manage&quot; role: yours is &quot;view&quot;, so they are not listed
          here.
        </p>
      ) : (
        <>
          <p className="muted">
            API tokens for scripts and other browsers: <strong>manage</strong> may change
            everything, <strong>view</strong> may only read. The admin token in{' '}
            <code>&lt;data-dir&gt;/admin-token</code> is not listed.
          </p>
          <ErrorNote error={list.error} />
          {list.data && tokens.length === 0 && <p className="empty">No tokens yet.</p>}
          {tokens.length > 0 && (
            <TokensTable tokens={tokens} onRevoke={(token) => setOpen({ kind: 'revoke', token })} />
          )}
        </>
      )}
      {open?.kind === 'create' && <CreateTokenDialog onClose={close} />}
      {open?.kind === 'revoke' && <RevokeDialog token={open.token} onClose={close} />}
    </section>
  );
}
