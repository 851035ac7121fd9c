import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import type { WebhookFile } from './formats.js';

/** The file a webhook of a managed factory lives in (names are already file-safe). */
export function webhookFilePath(dir: string, name: string): string {
  const yml = join(dir, 'webhooks', `${name}.yml`);
  return existsSync(yml) ? yml : join(dir, 'webhooks', `${name}.yaml`);
}

/** Raised when a definition file's write would follow a symbolic link. */
export class SymlinkRefusedError extends Error {}

/**
 * Creates the temp file new, never through a link: O_EXCL refuses any existing entry (a dangling
 * symlink included) and O_NOFOLLOW a link where the platform has it, so a link planted at the
 * temp path cannot send a definition write to another file.
 */
function createTempFile(tmp: string): number {
  // O_NOFOLLOW is undefined on Windows, where O_EXCL alone already refuses an existing link.
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  try {
    return openSync(tmp, flags, 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (lstatSync(tmp).isSymbolicLink()) {
    throw new SymlinkRefusedError(
      `${tmp} is a symbolic link: Hookport does not write definition files through links. Remove it and try again.`,
    );
  }
  // A plain temp file left by an interrupted write: ours to replace.
  rmSync(tmp);
  return openSync(tmp, flags, 0o644);
}

/** Temp file then rename: the watcher never reads half a file. */
function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.hookport-tmp`;
  const fd = createTempFile(tmp);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Writes a new webhook file, keys in the order the docs show them. */
export function writeWebhookFile(
  dir: string,
  name: string,
  file: Partial<WebhookFile> & Pick<WebhookFile, 'secretName'>,
): string {
  mkdirSync(join(dir, 'webhooks'), { recursive: true });
  const path = webhookFilePath(dir, name);
  const ordered: Array<keyof WebhookFile> = [
    'authMode',
    'signatureScheme',
    'signatureOptions',
    'secretName',
    'deliveryIdHeader',
    'eventTypePath',
    'enabled',
  ];
  const content = Object.fromEntries(
    ordered.filter((k) => file[k] !== undefined).map((k) => [k, file[k]]),
  );
  writeAtomically(path, stringify(content));
  return path;
}

/** Changes some keys of an existing webhook file, keeping the operator's comments and layout. */
export function editWebhookFile(
  dir: string,
  name: string,
  changes: Record<string, string | boolean | Record<string, unknown> | null>,
): string {
  const path = webhookFilePath(dir, name);
  const doc = parseDocument(readFileSync(path, 'utf8'));
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) doc.delete(key);
    else doc.set(key, value);
  }
  writeAtomically(path, String(doc));
  return path;
}

export function removeWebhookFile(dir: string, name: string): void {
  rmSync(webhookFilePath(dir, name), { force: true });
}
