import type { ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import { ErrorNote } from '../../components/ErrorNote.js';

/** The foot of a settings form: the error no field claimed, then Save (named for its section). */
export function SaveRow({
  what,
  busy,
  writeBlock,
  error,
  blocked,
  children,
}: {
  /** "public base URL": the button reads "Save" and is announced as "Save public base URL". */
  what: string;
  busy: boolean;
  writeBlock: string | null;
  error: ApiError | undefined;
  /** Why Save waits: a field says what is wrong with what was typed. */
  blocked?: string | undefined;
  children?: ReactNode;
}): ReactNode {
  return (
    <>
      <ErrorNote error={error} />
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || blocked !== undefined}
          title={writeBlock ?? blocked}
          aria-label={`Save ${what}`}
        >
          Save
        </button>
        {children}
      </div>
    </>
  );
}
