/**
 * A request's headers between the two shapes the relay keeps them in: the flat list the accept
 * path hands a store (name, value, name, value, …) and the pairs a log entry stores and reads
 * back (`[["Name","value"], …]`).
 */

/** The stored JSON of a flat list: exactly `JSON.stringify` of its pairs (an odd last name is dropped). */
export function headersJson(flat: readonly string[]): string {
  let json = '[';
  for (let i = 0; i + 1 < flat.length; i += 2) {
    if (i > 0) json += ',';
    json += `[${JSON.stringify(flat[i])},${JSON.stringify(flat[i + 1])}]`;
  }
  return `${json}]`;
}

/** Pairs as a flat list (a replay hands the stored request back to a store). */
export function flatHeaders(pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const flat: string[] = [];
  for (const [name, value] of pairs) flat.push(name, value);
  return flat;
}
