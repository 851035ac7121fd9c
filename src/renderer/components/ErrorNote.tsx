import type { ReactNode } from 'react';
import type { ApiError } from '../../shared/errors.js';

/** An error as the operator reads it: the message says what to do; the path says where. */
export function ErrorNote({ error }: { error: ApiError | undefined }): ReactNode {
  if (!error) return null;
  return (
    <p className="error-note" role="alert">
      {error.message}
    </p>
  );
}
