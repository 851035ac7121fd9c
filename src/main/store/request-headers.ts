/**
 * A request's headers between the two shapes the relay keeps them in: the flat list the accept
 * path hands a store (name, value, name, value, …) and the pairs a log entry stores and reads
 * back (`[["Name","value"], …]`).
 */

/**
 * The stored JSON of a flat list: `JSON.stringify` of its pairs (an odd last name is dropped).
 * The pairs are built here, on the store's side: a string built by hand from the list (a
 * `JSON.stringify` per name and value) took about 0.6 µs more for five headers.
 */
export function headersJson(flat: readonly string[]): string {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return JSON.stringify(pairs);
}

/** Pairs as a flat list (a replay hands the stored request back to a store). */
export function flatHeaders(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const flat: string[] = [];
  for (const [name, value] of pairs) flat.push(name, value);
  return flat;
}
