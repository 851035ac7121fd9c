import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Webhook } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import {
  editWebhookFile,
  removeWebhookFile,
  SymlinkRefusedError,
  webhookFilePath,
  writeWebhookFile,
} from '../definitions/files.js';
import type { WebhookFile } from '../definitions/formats.js';
import type { ServiceDeps } from './deps.js';
import { webhookJson } from './to-json.js';

/**
 * On a managed factory the files are the truth: the API edits a webhook's file and applies the
 * directory. If the apply is refused, the file is put back as it was and the error goes to the caller.
 */
async function changeFile(
  deps: ServiceDeps,
  factoryId: string,
  dir: string,
  name: string,
  change: () => void,
): Promise<void> {
  const path = webhookFilePath(dir, name);
  const before = existsSync(path) ? readFileSync(path, 'utf8') : null;
  try {
    change();
  } catch (error) {
    if (error instanceof SymlinkRefusedError) throw new ApiError('conflict', error.message);
    throw error;
  }
  try {
    await deps.definitions.syncNow(factoryId, {});
  } catch (error) {
    if (before === null) rmSync(path, { force: true });
    else writeFileSync(path, before);
    throw error;
  }
}

async function applied(deps: ServiceDeps, factoryId: string, name: string): Promise<Webhook> {
  const record = await deps.webhooks.findByName(factoryId, name);
  if (!record)
    throw new ApiError(
      'internal',
      `The definition of "${name}" applied but no webhook came of it.`,
    );
  return webhookJson(record, deps.settings);
}

export async function createManagedWebhook(
  deps: ServiceDeps,
  factoryId: string,
  dir: string,
  input: Partial<WebhookFile> & { name: string; secretName?: string; secret?: string },
): Promise<{ webhook: Webhook; secret: null; ingressUrl: string }> {
  if (input.secret !== undefined) {
    throw new ApiError(
      'invalid_input',
      'secret: webhooks of a managed factory use an existing team secret; create it first (POST /api/secrets) and name it in secretName',
      'secret',
    );
  }
  const file = {
    authMode: input.authMode,
    signatureScheme: input.signatureScheme,
    signatureOptions: input.signatureOptions,
    secretName: input.secretName ?? `webhook-${input.name}`,
    deliveryIdHeader: input.deliveryIdHeader,
    eventTypePath: input.eventTypePath,
  };
  await changeFile(deps, factoryId, dir, input.name, () => writeWebhookFile(dir, input.name, file));
  const webhook = await applied(deps, factoryId, input.name);
  // The value is a managed team secret: never shown here, and a URL token stays `{token}`.
  return { webhook, secret: null, ingressUrl: webhook.ingressUrl };
}

export async function updateManagedWebhook(
  deps: ServiceDeps,
  factoryId: string,
  dir: string,
  name: string,
  changes: { enabled?: boolean; deliveryIdHeader?: string | null; eventTypePath?: string | null },
): Promise<Webhook> {
  const edits: Record<string, string | boolean | null> = {};
  if (changes.enabled !== undefined) edits.enabled = changes.enabled;
  if (changes.deliveryIdHeader !== undefined) edits.deliveryIdHeader = changes.deliveryIdHeader;
  if (changes.eventTypePath !== undefined) edits.eventTypePath = changes.eventTypePath;
  await changeFile(deps, factoryId, dir, name, () => editWebhookFile(dir, name, edits));
  return applied(deps, factoryId, name);
}

export async function deleteManagedWebhook(
  deps: ServiceDeps,
  factoryId: string,
  dir: string,
  name: string,
): Promise<void> {
  await changeFile(deps, factoryId, dir, name, () => removeWebhookFile(dir, name));
}

/** A managed webhook's provider link lives in its file (`link:`); `null` removes the key. */
export async function setManagedLink(
  deps: ServiceDeps,
  factoryId: string,
  dir: string,
  name: string,
  link: Record<string, unknown> | null,
): Promise<void> {
  await changeFile(deps, factoryId, dir, name, () => editWebhookFile(dir, name, { link }));
}
