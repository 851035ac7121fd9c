import { urlTokenUids } from './relay-settings.js';
import type { Role } from '../../shared/contract/index.js';
import { ApiError } from '../../shared/errors.js';
import { newSecretValue } from '../ids.js';
import { getSignatureScheme } from '../ingress/schemes/index.js';
import type { SecretRecord } from '../store/secrets.js';
import type { WebhookRecord } from '../store/webhooks.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso, isoOrNull } from './to-json.js';
import { assertFitsEveryWebhook } from './webhook-secrets.js';
import { requireFactory } from './webhooks.js';

type SecretHandlers = Pick<
  ServiceHandlers,
  'secrets.list' | 'secrets.create' | 'secrets.rotate' | 'secrets.delete'
>;

/**
 * A value to generate for a secret these webhooks use, or an explanation of why it must be
 * pasted: a provider (Stripe, GitHub, …) signs with the secret it issued, not one the relay makes up.
 */
function generatedValueFor(users: readonly WebhookRecord[]): string {
  const generatorOf = (w: WebhookRecord) =>
    w.signatureScheme === null ? undefined : getSignatureScheme(w.signatureScheme).newSecret;
  const providers = users.filter((w) => w.authMode === 'signature' && generatorOf(w) === undefined);
  if (providers.length > 0) {
    throw new ApiError(
      'invalid_input',
      `value: paste the new signing secret from the provider: ${providers.map((w) => w.name).join(', ')} ${providers.length === 1 ? 'checks' : 'check'} the provider's signature with it, so Hookport cannot make one up`,
      'value',
    );
  }
  const generate = users.map(generatorOf).find((generator) => generator !== undefined);
  return generate ? generate() : newSecretValue();
}

export function secretHandlers(deps: ServiceDeps): SecretHandlers {
  // `view` sees no fingerprint at all (issue 24); '' is one dropped when its value was missing.
  const json = async (record: SecretRecord, role: Role = 'manage') => ({
    factory: record.factoryId,
    name: record.name,
    fingerprint: role === 'manage' && record.fingerprint !== '' ? record.fingerprint : null,
    createdAt: iso(record.createdAt),
    rotatedAt: isoOrNull(record.rotatedAt),
    usedBy: (await deps.webhooks.usingSecret(record.factoryId, record.name)).map((w) => ({
      uid: w.uid,
      name: w.name,
    })),
  });
  const requireSecret = async (factory: string, name: string): Promise<SecretRecord> => {
    const record = await deps.secrets.get(factory, name);
    if (!record)
      throw new ApiError('not_found', `No team secret "${name}" in factory "${factory}".`);
    return record;
  };
  const changed = (): Promise<void> => deps.onChanged('secrets');

  return {
    'secrets.list': async ({ factory }, caller) => {
      await requireFactory(deps, factory);
      const items = [];
      for (const record of await deps.secrets.list(factory)) {
        items.push(await json(record, caller.role));
      }
      return {
        items,
        backend: deps.secrets.backend,
        backendDescription: deps.secrets.description,
      };
    },

    'secrets.create': ({ factory, name, value }) =>
      deps.writes.run(async () => {
        await requireFactory(deps, factory);
        if (await deps.secrets.get(factory, name)) {
          throw new ApiError(
            'conflict',
            `name: a team secret named "${name}" already exists`,
            'name',
          );
        }
        const chosen = value ?? newSecretValue();
        const record = await deps.secrets.create(factory, name, chosen);
        await changed();
        return { secret: await json(record), value: chosen };
      }),

    'secrets.rotate': ({ factory, name, value }) =>
      deps.writes.run(async () => {
        await requireSecret(factory, name);
        const users = await deps.webhooks.usingSecret(factory, name);
        const chosen = value ?? generatedValueFor(users);
        assertFitsEveryWebhook(chosen, users, 'value');
        // Once this returns the ingress accepts only the new value: no overlap window.
        const record = await deps.secrets.rotate(factory, name, chosen);
        await changed();
        deps.links.pointAgain(urlTokenUids(users));
        return { secret: await json(record), value: chosen };
      }),

    'secrets.delete': ({ factory, name }) =>
      deps.writes.run(async () => {
        await requireSecret(factory, name);
        const users = await deps.webhooks.usingSecret(factory, name);
        if (users.length > 0) {
          throw new ApiError(
            'conflict',
            `"${name}" is used by ${users.map((w) => w.name).join(', ')}; delete those webhooks or point them at another secret first`,
          );
        }
        await deps.secrets.remove(factory, name);
        await changed();
        return { name, deleted: true as const };
      }),
  };
}
