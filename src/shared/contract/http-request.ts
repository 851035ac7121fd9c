import { ApiError } from '../errors.js';
import { contract, type MethodInput, type MethodName, type MethodOutput } from './index.js';

/** One contract call as an HTTP request relative to the admin listener's origin. */
export interface ContractRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with route parameters filled in and, for GET and DELETE, the other fields as a query. */
  pathAndQuery: string;
  /** JSON text for POST, PUT and PATCH; undefined otherwise. */
  body: string | undefined;
}

/** Route and query parameters are scalars in every contract input. */
function scalarText(key: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  throw new TypeError(`${key} must be a string, number or boolean`);
}

/**
 * The HTTP form of a call, derived from the contract's route: `:name` segments take the field of
 * that name, the rest goes in the query (GET, DELETE) or the JSON body (POST, PATCH). Every HTTP
 * client of the API (the CLI, the browser UI) builds its requests here, so none restates a route.
 */
export function contractRequest<M extends MethodName>(
  name: M,
  input: MethodInput<M>,
): ContractRequest {
  const { http } = contract[name];
  const fields: Record<string, unknown> = { ...(input as Record<string, unknown>) };
  const path = http.path.replace(/:([A-Za-z]+)/g, (_match, key: string) => {
    const value = fields[key];
    delete fields[key];
    return encodeURIComponent(scalarText(key, value));
  });
  const hasBody = http.method === 'POST' || http.method === 'PUT' || http.method === 'PATCH';
  if (hasBody) return { method: http.method, pathAndQuery: path, body: JSON.stringify(fields) };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) query.set(key, scalarText(key, value));
  }
  const search = query.toString();
  return {
    method: http.method,
    pathAndQuery: search === '' ? path : `${path}?${search}`,
    body: undefined,
  };
}

/** A response's text as the call's output (checked against the contract), or its ApiError. */
export function contractResponse<M extends MethodName>(
  name: M,
  status: number,
  text: string,
): MethodOutput<M> {
  let body: unknown = null;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page, say): reported by status below.
  }
  if (status < 200 || status > 299) throw ApiError.fromBody(body, status);
  return contract[name].output.parse(body) as MethodOutput<M>;
}
