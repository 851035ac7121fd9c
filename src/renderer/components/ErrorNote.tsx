import type { ReactNode } from 'react';
import type { ApiError } from '../../shared/errors.js';
import { besideField } from './field-errors.js';

/**
 * An error as the operator reads it: the message says what to do; the path says where, unless
 * `atField` says the one field it can be about is right above.
 */
export function ErrorNote({
  error,
  atField = false,
}: {
  error: ApiError | undefined;
  atField?: boolean;
}): ReactNode {
  if (!error) return null;
  return (
    <p className="error-note" role="alert">
      {atField ? besideField(error) : error.message}
    </p>
  );
}
