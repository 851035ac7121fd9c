import type { ApiError } from '../../shared/errors.js';

/**
 * The API's message when its `path` points at this field (or inside it), else nothing. Shown
 * under the field's own label, so the API's `path: ` prefix is dropped.
 */
export function errorAt(error: ApiError | undefined, path: string): string | undefined {
  if (!error?.path) return undefined;
  if (error.path !== path && !error.path.startsWith(`${path}.`)) return undefined;
  return besideField(error);
}

/** The API's message without its leading `path: `, which names the field in the API's terms. */
export function withoutPath(error: ApiError): string {
  return error.path && error.message.startsWith(`${error.path}: `)
    ? error.message.slice(error.path.length + 2)
    : error.message;
}

/** The message as shown where the field is already in view: no path, a capital first. */
export function besideField(error: ApiError): string {
  const message = withoutPath(error);
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** The error when no field below claims it, so it is shown once, as a general note. */
export function unclaimed(error: ApiError | undefined, paths: string[]): ApiError | undefined {
  if (!error) return undefined;
  return paths.some((path) => errorAt(error, path) !== undefined) ? undefined : error;
}
