import type { ReactNode } from 'react';
import type { TeamSecret } from '../../../shared/contract/secrets.js';
import { formatTime } from '../../components/format.js';
import { UsedByList } from './UsedByList.js';

export const inUseReason = (secret: TeamSecret): string | null =>
  secret.usedBy.length === 0
    ? null
    : `In use by ${secret.usedBy.map((w) => w.name).join(', ')}: delete those webhooks or point them at another secret first.`;

function Time({ iso }: { iso: string | null }): ReactNode {
  if (iso === null) return <span className="muted">never</span>;
  return <time dateTime={iso}>{formatTime(iso)}</time>;
}

/** Names, fingerprints and users of each team secret; never a value. */
export function SecretsTable({
  secrets,
  writeBlock,
  onRotate,
  onDelete,
}: {
  secrets: TeamSecret[];
  writeBlock: string | null;
  onRotate: (secret: TeamSecret) => void;
  onDelete: (secret: TeamSecret) => void;
}): ReactNode {
  return (
    <table className="table secrets-table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Fingerprint</th>
          <th scope="col">Created</th>
          <th scope="col">Rotated</th>
          <th scope="col">Used by</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {secrets.map((secret) => {
          const deleteBlock = writeBlock ?? inUseReason(secret);
          return (
            <tr key={secret.name}>
              <td className="mono">{secret.name}</td>
              <td>
                {secret.fingerprint === null ? (
                  <span className="muted" title="Fingerprints are shown to manage tokens only">
                    hidden
                  </span>
                ) : (
                  <code>{secret.fingerprint}</code>
                )}
              </td>
              <td>
                <Time iso={secret.createdAt} />
              </td>
              <td>
                <Time iso={secret.rotatedAt} />
              </td>
              <td>
                <UsedByList users={secret.usedBy} />
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  aria-label={`Rotate ${secret.name}`}
                  disabled={writeBlock !== null}
                  title={writeBlock ?? undefined}
                  onClick={() => onRotate(secret)}
                >
                  Rotate
                </button>
                <button
                  type="button"
                  className="danger"
                  aria-label={`Delete ${secret.name}`}
                  disabled={deleteBlock !== null}
                  title={deleteBlock ?? undefined}
                  onClick={() => onDelete(secret)}
                >
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
