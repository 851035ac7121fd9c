export type PathSegment = string | number;

// Keys that would read ambiguously after a dot (dots, spaces, quotes, the empty key) are quoted.
const PLAIN_KEY = /^[A-Za-z0-9_$-]+$/;

/** Renders `['pull_request', 'state']` as `pull_request.state`, `['a.b', 0]` as `["a.b"][0]`. */
export function formatPath(segments: readonly PathSegment[], base = ''): string {
  let out = base;
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
