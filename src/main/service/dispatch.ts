import type { z } from 'zod';
import { contract, roleAllows, type MethodName } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import type { Caller, ServiceHandlers } from './handlers.js';

const isMethodName = (name: string): name is MethodName => Object.hasOwn(contract, name);

/** The first zod issue, phrased for a person: `name: must be ...`, with its path kept apart. */
export function toInputError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError('invalid_input', 'Invalid input.');
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = [...issue.path, ...keys.slice(0, 1)].map(String).join('.');
  const message = issue.code === 'unrecognized_keys' ? `unknown field "${keys[0]}"` : issue.message;
  return new ApiError('invalid_input', path ? `${path}: ${message}` : message, path || undefined);
}

/**
 * The transport-neutral entry: role check, input validation, the handler, then the output
 * schema (which also strips anything a handler returned that the contract does not show).
 */
export async function dispatch(
  service: ServiceHandlers,
  name: string,
  rawInput: unknown,
  caller: Caller,
): Promise<unknown> {
  if (!isMethodName(name)) throw new ApiError('not_found', `Unknown method ${name}.`);
  const def = contract[name];
  if (!roleAllows(caller.role, def.role)) {
    throw new ApiError(
      'forbidden',
      `This needs the "${def.role}" role; your token has "${caller.role}".`,
    );
  }
  const parsed = def.input.safeParse(rawInput ?? {});
  if (!parsed.success) throw toInputError(parsed.error);
  const handler = service[name] as (input: unknown, caller: Caller) => Promise<unknown>;
  const result = await handler(parsed.data, caller);
  return def.output.parse(result);
}
