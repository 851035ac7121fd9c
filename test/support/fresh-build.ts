import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './hookport-bin.js';

/** The newest modification time of any file under `dir`. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return Math.min(
      statSync(join(REPO_ROOT, 'out/main/cli.js')).mtimeMs,
      statSync(join(REPO_ROOT, 'out/renderer/index.html')).mtimeMs,
    );
  } catch {
    return 0;
  }
}

/**
 * Vitest's global setup: child relays, CLI runs and the browser tests use the build, so a run of
 * a few files after an edit builds first (`npm test` has just built, and skips this).
 */
export default function freshBuild(): void {
  if (builtAt() >= newestUnder(join(REPO_ROOT, 'src'))) return;
  console.log('[tests] src/ changed since the last build: building first (npm run build)');
  const built = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed: the tests need a build');
}
