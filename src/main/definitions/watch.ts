import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

const DEBOUNCE_MS = 200;
const FOLDERS = ['', 'webhooks', 'automations'];

export interface DefinitionWatcher {
  close(): Promise<void>;
}

/**
 * Calls `onChange` once a burst of file events in a definition directory has settled (an editor's
 * save is several). Definition directories are flat, so the root and its two folders are watched
 * directly: `fs.watch` is armed before this returns, and any event means "read everything again".
 */
export function watchDefinitions(dir: string, onChange: () => void): DefinitionWatcher {
  const handles = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const arm = (): void => {
    for (const folder of FOLDERS) {
      const path = join(dir, folder);
      if (closed || handles.has(path) || !existsSync(path)) continue;
      try {
        const handle = watch(path, () => changed());
        // A folder that is removed stops its watcher; the root's watcher re-arms it when it returns.
        handle.on('error', () => {
          handle.close();
          handles.delete(path);
        });
        handles.set(path, handle);
      } catch {
        // Gone between the check and the watch: the next event re-arms.
      }
    }
  };

  const changed = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      arm();
      onChange();
    }, DEBOUNCE_MS);
  };

  arm();
  return {
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const handle of handles.values()) handle.close();
      handles.clear();
      return Promise.resolve();
    },
  };
}
