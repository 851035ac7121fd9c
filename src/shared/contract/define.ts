import type { z } from 'zod';

export type Role = 'manage' | 'view';

export interface HttpRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Koa-style path; `:name` segments become input fields of the same name. */
  path: string;
  /** Success status; 200 unless stated. */
  status?: number;
}

/** One management call: who may make it, what goes in, what comes out, where it lives on HTTP. */
export interface MethodDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  role: Role;
  summary: string;
  input: I;
  output: O;
  http: HttpRoute;
}

export function method<I extends z.ZodType, O extends z.ZodType>(
  def: MethodDef<I, O>,
): MethodDef<I, O> {
  return def;
}

/** `view` may call what needs `view`; `manage` may call everything. */
export function roleAllows(held: Role, needed: Role): boolean {
  return held === 'manage' || needed === 'view';
}
