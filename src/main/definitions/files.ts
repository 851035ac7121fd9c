import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import type { WebhookFile } from './formats.js';

/** The file a webhook of a managed factory lives in (names are already file-safe). */
export function webhookFilePath(dir: string, name: string): string {
  const yml = join(dir, 'webhooks', `${name}.yml`);
  return existsSync(yml) ? yml : join(dir, 'webhooks', `${name}.yaml`);
}

/** Temp file then rename: the watcher never reads half a file. */
function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.hookport-tmp`;
  writeFileSync(tmp, text, { mode: 0o644 });
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
  changes: Record<string, string | boolean | null>,
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
