import type { ReactNode } from 'react';
import type { ApiError } from '../../../shared/errors.js';
import { besideField, errorAt } from '../../components/field-errors.js';

/** Which fields a server error belongs to: its path, or the path's first segment. */
export function errorFor(error: ApiError | undefined, ...paths: string[]): ApiError | undefined {
  return paths.some((path) => errorAt(error, path) !== undefined) ? error : undefined;
}

/** A server validation error shown beside the field it names (`id` for aria-describedby). */
export function FieldError({ id, error }: { id: string; error: ApiError | undefined }): ReactNode {
  if (!error) return null;
  return (
    <p id={id} className="error-note field-error" role="alert">
      {besideField(error)}
    </p>
  );
}
