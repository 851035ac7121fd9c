import type { z } from 'zod';
import type { Contract, MethodName, ParsedInput, Role } from '../../shared/contract/index.js';

export interface Caller {
  role: Role;
  /** Aborts once the asker no longer waits for the answer (its HTTP request closed). */
  gone?: AbortSignal;
}

export type Handler<M extends MethodName> = (
  input: ParsedInput<M>,
  caller: Caller,
) => Promise<z.input<Contract[M]['output']>>;

/** The management service: one handler per contract method, derived from the contract. */
export type ServiceHandlers = { [M in MethodName]: Handler<M> };
