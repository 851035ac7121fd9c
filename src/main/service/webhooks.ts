import { urlTokenUids } from './relay-settings.js';
import { ApiError } from '../../shared/errors.js';
import { newWebhookUid } from '../ids.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import {
  createManagedWebhook,
  deleteManagedWebhook,
  updateManagedWebhook,
} from './managed-webhooks.js';
import { webhookJson } from './to-json.js';
import { EVENT_TYPE_PATH_NOTE } from '../../shared/contract/webhooks.js';
import { takesEventTypePath } from '../../shared/providers/index.js';
import { signatureOptionsProblem } from '../../shared/providers/auth-settings.js';
import {
  assertFitsEveryWebhook,
  assertUrlSafe,
  assertUsableSigningSecret,
  chooseSecretValue,
} from './webhook-secrets.js';

type WebhookHandlers = Pick<
  ServiceHandlers,
  | 'webhooks.list'
  | 'webhooks.create'
  | 'webhooks.get'
  | 'webhooks.update'
  | 'webhooks.rotate'
  | 'webhooks.delete'
>;

export async function requireFactory(deps: ServiceDeps, id: string) {
  const factory = await deps.factories.get(id);
  if (!factory) throw new ApiError('not_found', `No factory "${id}".`, 'factory');
  return factory;
}

function assertEventTypePathFits(
  authMode: WebhookRecord['authMode'],
  scheme: WebhookRecord['signatureScheme'],
  path: string | null | undefined,
): void {
  if (path !== undefined && path !== null && !takesEventTypePath(authMode, scheme)) {
    throw new ApiError(
      'invalid_input',
      `eventTypePath: ${EVENT_TYPE_PATH_NOTE} (the ${scheme ?? authMode} scheme reads it from its own headers or body)`,
      'eventTypePath',
    );
  }
}

export async function requireLiveWebhook(deps: ServiceDeps, uid: string): Promise<WebhookRecord> {
  const webhook = await deps.webhooks.get(uid);
  if (!webhook || webhook.deletedAt !== null) throw new ApiError('not_found', `No webhook ${uid}.`);
  return webhook;
}

/**
 * `webhook-<name>`, or `-2`, `-3`, … when this relay or the keychain already holds that name
 * (keychain items outlive a deleted data dir and are shared with other relays on the machine).
 */
async function freeSecretName(
  deps: ServiceDeps,
  factoryId: string,
  webhookName: string,
): Promise<string> {
  const suggested = `webhook-${webhookName}`;
  let name = suggested;
  for (
    let n = 2;
    (await deps.secrets.get(factoryId, name)) ||
    (await deps.secrets.heldElsewhere(factoryId, name));
    n++
  )
    name = `${suggested}-${n}`;
  return name;
}

export function webhookHandlers(deps: ServiceDeps): WebhookHandlers {
  const changed = async (uid: string): Promise<void> => {
    await deps.onChanged('webhooks', { webhookUid: uid });
  };

  return {
    'webhooks.list': async ({ factory }) => {
      await requireFactory(deps, factory);
      return {
        items: (await deps.webhooks.list(factory)).map((w) => webhookJson(w, deps.settings)),
      };
    },

    'webhooks.get': async ({ uid }) =>
      webhookJson(await requireLiveWebhook(deps, uid), deps.settings),

    'webhooks.create': (input) =>
      deps.writes.run(async () => {
        const factory = await requireFactory(deps, input.factory);
        const scheme = input.signatureScheme ?? null;
        if (input.authMode === 'signature') {
          if (!scheme) {
            throw new ApiError(
              'invalid_input',
              'signatureScheme: required when authMode is "signature"',
              'signatureScheme',
            );
          }
          const optionsProblem = signatureOptionsProblem(
            scheme,
            input.signatureOptions !== undefined,
          );
          if (optionsProblem !== null) {
            throw new ApiError(
              'invalid_input',
              `signatureOptions: ${optionsProblem}`,
              'signatureOptions',
            );
          }
        } else if (scheme || input.signatureOptions) {
          throw new ApiError(
            'invalid_input',
            'signatureScheme: only for authMode "signature"',
            'signatureScheme',
          );
        }
        assertEventTypePathFits(input.authMode, scheme, input.eventTypePath);
        if (await deps.webhooks.findByName(factory.id, input.name)) {
          throw new ApiError(
            'conflict',
            `name: a webhook named "${input.name}" already exists`,
            'name',
          );
        }
        const limit = deps.limits.webhooksPerFactory;
        if ((await deps.webhooks.countLive(factory.id)) >= limit) {
          throw new ApiError(
            'limit_reached',
            `This factory already has ${limit} webhooks, the most it may have. Delete one first.`,
          );
        }

        if (factory.definitionsDir) {
          return createManagedWebhook(deps, factory.id, factory.definitionsDir, input);
        }
        // Only a secret name the caller typed reuses an existing team secret. The suggested
        // default must not: a webhook re-created under a deleted one's name would silently
        // inherit the old (perhaps leaked) secret and show none.
        const secretName = input.secretName ?? (await freeSecretName(deps, factory.id, input.name));
        let revealed: string | null = null;
        let createdSecret = false;
        if (await deps.secrets.get(factory.id, secretName)) {
          if (input.secret !== undefined) {
            throw new ApiError(
              'conflict',
              `secret: a team secret named "${secretName}" already exists; leave the secret blank to reuse it, or choose another secret name`,
              'secret',
            );
          }
          const existing = deps.secrets.cachedValue(factory.id, secretName);
          if (input.authMode === 'url_token' && existing !== undefined)
            assertUrlSafe(existing, 'secretName');
          if (scheme && existing !== undefined)
            assertUsableSigningSecret(
              scheme,
              input.signatureOptions ?? null,
              existing,
              'secretName',
            );
        } else {
          revealed = chooseSecretValue(
            input.authMode,
            scheme,
            input.secret,
            input.signatureOptions ?? null,
          );
          if (input.authMode === 'url_token') assertUrlSafe(revealed, 'secret');
          await deps.secrets.create(factory.id, secretName, revealed, 'secretName');
          createdSecret = true;
        }

        const record: WebhookRecord = {
          uid: newWebhookUid(),
          factoryId: factory.id,
          name: input.name,
          authMode: input.authMode,
          signatureScheme: scheme,
          signatureOptions: input.signatureOptions ?? null,
          secretName,
          deliveryIdHeader: input.deliveryIdHeader ?? null,
          eventTypePath: input.eventTypePath ?? null,
          enabled: true,
          createdAt: deps.now(),
          deletedAt: null,
        };
        try {
          await deps.webhooks.insert(record);
        } catch (error) {
          if (createdSecret) await deps.secrets.remove(factory.id, secretName);
          throw error;
        }
        await changed(record.uid);
        if (createdSecret) await deps.onChanged('secrets');
        return {
          webhook: webhookJson(record, deps.settings),
          secret: revealed,
          ingressUrl: deps.settings.ingressUrl(record, revealed ?? undefined),
        };
      }),

    'webhooks.update': ({ uid, ...changes }) =>
      deps.writes.run(async () => {
        const current = await requireLiveWebhook(deps, uid);
        assertEventTypePathFits(current.authMode, current.signatureScheme, changes.eventTypePath);
        if (changes.name !== undefined && changes.name !== current.name) {
          if ((await deps.factories.get(current.factoryId))?.definitionsDir) {
            throw new ApiError(
              'conflict',
              `name: webhooks of a managed factory cannot be renamed; rename webhooks/${current.name}.yaml instead (a rename is a delete plus a create: the webhook gets a new UID)`,
              'name',
            );
          }
          if (await deps.webhooks.findByName(current.factoryId, changes.name)) {
            throw new ApiError(
              'conflict',
              `name: a webhook named "${changes.name}" already exists`,
              'name',
            );
          }
        }
        const managedDir = (await deps.factories.get(current.factoryId))?.definitionsDir;
        if (managedDir) {
          return updateManagedWebhook(deps, current.factoryId, managedDir, current.name, changes);
        }
        const updated = (await deps.webhooks.update(uid, changes))!;
        await changed(uid);
        return webhookJson(updated, deps.settings);
      }),

    'webhooks.rotate': ({ uid, secret }) =>
      deps.writes.run(async () => {
        const webhook = await requireLiveWebhook(deps, uid);
        if ((await deps.factories.get(webhook.factoryId))?.definitionsDir) {
          throw new ApiError(
            'conflict',
            `This webhook is defined in a file: rotate the team secret "${webhook.secretName}" instead.`,
          );
        }
        const value = chooseSecretValue(
          webhook.authMode,
          webhook.signatureScheme,
          secret,
          webhook.signatureOptions,
        );
        const sharers = await deps.webhooks.usingSecret(webhook.factoryId, webhook.secretName);
        assertFitsEveryWebhook(value, sharers, 'secret');
        await deps.secrets.rotate(webhook.factoryId, webhook.secretName, value);
        await deps.onChanged('secrets');
        deps.links.pointAgain(urlTokenUids(sharers));
        return { secret: value, ingressUrl: deps.settings.ingressUrl(webhook, value) };
      }),

    'webhooks.delete': ({ uid }) =>
      deps.writes.run(async () => {
        const current = await requireLiveWebhook(deps, uid);
        const managedDir = (await deps.factories.get(current.factoryId))?.definitionsDir;
        if (managedDir) {
          await deleteManagedWebhook(deps, current.factoryId, managedDir, current.name);
          return { uid, deleted: true as const };
        }
        await deps.webhooks.softDelete(uid, deps.now());
        await changed(uid);
        return { uid, deleted: true as const };
      }),
  };
}
