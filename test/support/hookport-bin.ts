import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What a child process runs for `hookport …`: the built command users run (bin/hookport.js over
 * out/), not the sources through a loader, which took ~2 s of CPU per start. `npm test` builds
 * before Vitest, and the global setup (test/support/fresh-build.ts) rebuilds a stale build.
 */
export function hookportArgv(...args: readonly string[]): string[] {
  return [join(REPO_ROOT, 'bin/hookport.js'), ...args];
}
