import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What makes an integration file unsafe to share a worker's modules with the next file:
 * - a module mock, spy, fake timers or a process.env write: the whole process sees them;
 * - a private gnome-keyring (the keyring binding keeps its first D-Bus connection);
 * - a clock of its own, or rows seeded at chosen times: IDs are monotonic ULIDs
 *   (src/main/ids.ts), so a clock ahead of the last ID's time shifts the next file's IDs, and
 *   a file's own past times would be lost behind the last file's;
 * - the clean clone of the first-run test.
 */
const NEEDS_ISOLATION =
  /vi\.(mock|doMock|stub\w*|spyOn|useFakeTimers)|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|keyring-session|clocked-relay|seed-log|store-seeds|\bnow\b\s*[:,(=]|first-run/;

/**
 * The same for a browser file, except seed-log: its rows go into the file's own relay's SQLite
 * file with IDs it makes itself (test/support/seed-log.ts), never through src/main/ids.ts.
 */
const BROWSER_NEEDS_ISOLATION = new RegExp(NEEDS_ISOLATION.source.replace('|seed-log', ''));

/**
 * Browser files that time out after another browser file in the same worker although the rule
 * finds nothing (webhooks: its first test, 30 s, passes alone in 25 s); the cause is not known yet.
 */
const BROWSER_KEPT_ISOLATED = ['test/e2e/webhooks.test.ts'];

/**
 * Files under `under` (test/integration by default, or test/e2e) that keep Vitest's isolation
 * (one module graph per file), relative to root.
 */
export function isolatedIntegrationFiles(root: string, under = 'test/integration'): string[] {
  const dir = join(root, under);
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `${under}/${file}`)
    .filter((file) => {
      if (under === 'test/e2e' && BROWSER_KEPT_ISOLATED.includes(file)) return true;
      const rule = under === 'test/e2e' ? BROWSER_NEEDS_ISOLATION : NEEDS_ISOLATION;
      return rule.test(file) || rule.test(readFileSync(join(root, file), 'utf8'));
    })
    .sort();
}
