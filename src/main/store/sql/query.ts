/**
 * SQL written once for both stores. A repository method that is one statement says so as a
 * `Call`: the SQL with PostgreSQL's `$n` placeholders, its parameters in `$n` order, and how the
 * answer becomes the method's value. sqlite/queries.ts runs a call synchronously (prepared once,
 * `$n` rewritten, booleans as 0/1); postgres/queries.ts sends it through pg. Statements the engines
 * answer differently (claims and leases, search, the batch, migrations) stay in the twins.
 */
export type Call<R> =
  | { kind: 'rows'; sql: string; params: readonly unknown[]; answer: (rows: unknown[]) => R }
  | { kind: 'row'; sql: string; params: readonly unknown[]; answer: (row: unknown) => R }
  | { kind: 'run'; sql: string; params: readonly unknown[]; answer: (changes: number) => R };

/** Every row the statement answers, each mapped. */
export const rows = <Row, R>(
  sql: string,
  params: readonly unknown[],
  map: (row: Row) => R,
): Call<R[]> => ({ kind: 'rows', sql, params, answer: (all) => (all as Row[]).map(map) });

/** The first row the statement answers (undefined: none), mapped. */
export const row = <Row, R>(
  sql: string,
  params: readonly unknown[],
  map: (row: Row | undefined) => R,
): Call<R> => ({ kind: 'row', sql, params, answer: (first) => map(first as Row | undefined) });

/** A write; `answer` makes the method's value of how many rows it changed. */
export function run(sql: string, params: readonly unknown[]): Call<void>;
export function run<R>(
  sql: string,
  params: readonly unknown[],
  answer: (changes: number) => R,
): Call<R>;
export function run<R>(
  sql: string,
  params: readonly unknown[],
  answer?: (changes: number) => R,
): Call<R | void> {
  return { kind: 'run', sql, params, answer: answer ?? (() => undefined) };
}

/** A repository's methods as calls: each takes the method's arguments and answers its value. */
export type Calls<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Call<R>
    : never;
};

/** `answer` of a write that touched exactly one row. */
export const one = (changes: number): boolean => changes === 1;

/** `answer` of a write that touched any row. */
export const some = (changes: number): boolean => changes > 0;

/** `call` with its answer made into another value. */
export const mapCall = <A, B>(call: Call<A>, f: (value: A) => B): Call<B> => {
  switch (call.kind) {
    case 'rows':
      return { ...call, answer: (all: unknown[]) => f(call.answer(all)) };
    case 'row':
      return { ...call, answer: (first: unknown) => f(call.answer(first)) };
    case 'run':
      return { ...call, answer: (changes: number) => f(call.answer(changes)) };
  }
};
