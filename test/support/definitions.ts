import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestRelay } from './relay.js';
import { tempDir } from './relay.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/definitions', import.meta.url));

/** A writable copy of a fixture definition directory. */
export function copyFixture(name: string): string {
  const dir = join(tempDir('hookport-defs-'), name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

export function writeDefinition(dir: string, file: string, text: string): void {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** The team secrets the `basic` fixture names, created through the API as an operator would. */
export async function createFixtureSecrets(relay: TestRelay): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [name, value] of [
    ['github-signing', 'gh-signing-secret'],
    ['nightly-token', undefined],
    ['partner-url', undefined],
  ] as const) {
    const created = await relay.call('secrets.create', value ? { name, value } : { name });
    values[name] = created.value;
  }
  return values;
}

export interface SyncBody {
  applied: boolean;
  items: Array<{
    kind: string;
    name: string;
    file: string | null;
    action: string;
    id: string | null;
    changes: string[];
    note: string | null;
  }>;
  ignored: string[];
  error?: { code: string; message: string; path?: string };
}

export const sync = async (relay: TestRelay, body: Record<string, unknown> = {}) =>
  relay.api<SyncBody>('POST', '/api/factories/default/sync', body);

let editedCopies = 0;

/**
 * Applies the directory as `edit` changes it, through a copy. The relay applies an edit to the
 * directory it watches by itself about 200 ms later; on a loaded machine that can come first and
 * leave an explicit apply nothing to report. The copy is what the relay watches afterwards: pass
 * the returned `dir` to the next edit.
 */
export async function syncEdited(
  relay: TestRelay,
  dir: string,
  edit: (copy: string) => void,
): Promise<Awaited<ReturnType<typeof sync>> & { dir: string }> {
  const copy = `${dir.replace(/~\d+$/, '')}~${++editedCopies}`;
  cpSync(dir, copy, { recursive: true });
  edit(copy);
  return { ...(await sync(relay, { dir: copy })), dir: copy };
}

export const automationFile = (uids: string[], prompt = 'Triage it.', extra = ''): string =>
  `---\n${extra}triggers:\n  - provider: webhook\n    event: received\n    filter:\n      webhook_ids: [${uids.join(', ')}]\n---\n${prompt}\n`;
