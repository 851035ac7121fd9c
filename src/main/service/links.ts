import { DEFAULT_API_BASE_URLS } from '../../shared/contract/links.js';
import { ApiError } from '../../shared/errors.js';
import type { LinkKeeper } from '../links/link-keeper.js';
import { ProviderError } from '../links/provider.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { setManagedLink } from './managed-webhooks.js';
import { requireLiveWebhook } from './webhooks.js';

type LinkHandlers = Pick<
  ServiceHandlers,
  'links.get' | 'links.put' | 'links.delete' | 'links.check' | 'links.recover'
>;

const NO_LINK = (uid: string) =>
  new ApiError(
    'not_found',
    `Webhook ${uid} has no provider link; link it first (PUT /api/webhooks/${uid}/link).`,
  );

/** PRODUCT §19's routes: link, unlink, check, recover. The work is the link keeper's. */
export function linkHandlers(deps: ServiceDeps): LinkHandlers {
  const { links } = deps;
  // A link shows on its webhook's page: the webhook's readers look again.
  const changed = (uid: string) => deps.onChanged('webhooks', { webhookUid: uid });
  return {
    'links.get': async ({ uid }) => {
      await requireLiveWebhook(deps, uid);
      const link = await links.repo.get(uid);
      return link ? links.json(link) : null;
    },
    'links.put': ({ uid, ...input }) =>
      deps.writes.run(async () => {
        const webhook = await requireLiveWebhook(deps, uid);
        if (!(await deps.secrets.get(webhook.factoryId, input.tokenSecretName))) {
          throw new ApiError(
            'invalid_input',
            `tokenSecretName: no team secret named "${input.tokenSecretName}"; create it with the provider's API token first (Secrets).`,
            'tokenSecretName',
          );
        }
        const previous = await links.repo.get(uid);
        const record = {
          webhookUid: uid,
          kind: input.kind,
          target: input.target,
          tokenSecretName: input.tokenSecretName,
          apiBaseUrl: input.apiBaseUrl ?? DEFAULT_API_BASE_URLS[input.kind],
          keepPointed: input.keepPointed,
          recover: input.recover,
          createdAt: previous?.createdAt ?? deps.now(),
        };
        try {
          await links.verify(
            { ...record, check: null, recovery: null, recoveredThrough: null },
            webhook,
          );
        } catch (error) {
          if (error instanceof ProviderError)
            throw new ApiError('invalid_input', error.message, 'target');
          throw error;
        }
        const managedDir = (await deps.factories.get(webhook.factoryId))?.definitionsDir;
        if (managedDir) {
          // A managed factory's files are the truth: the link is written into the webhook's file.
          const { webhookUid: _uid, createdAt: _at, ...fields } = record;
          await setManagedLink(deps, webhook.factoryId, managedDir, webhook.name, fields);
        } else await links.repo.put(record);
        await changed(uid);
        // Saved: pointed (when asked to) and checked now, so the answer shows the hook as it is.
        const saved = (await links.keepPointed(uid)) ?? (await links.repo.get(uid));
        return links.json(saved!);
      }),
    'links.delete': ({ uid }) =>
      deps.writes.run(async () => {
        const webhook = await requireLiveWebhook(deps, uid);
        // The provider's hook is kept: unlinking only stops the relay acting on it.
        const managedDir = (await deps.factories.get(webhook.factoryId))?.definitionsDir;
        if (managedDir && (await links.repo.get(uid))) {
          await setManagedLink(deps, webhook.factoryId, managedDir, webhook.name, null);
        } else if (!(await links.repo.remove(uid))) throw NO_LINK(uid);
        await changed(uid);
        return { uid, deleted: true as const };
      }),
    'links.check': async ({ uid }) => {
      await requireLiveWebhook(deps, uid);
      // With keep pointed on, a hook found pointing elsewhere or disabled is mended first.
      const checked = await links.keepPointed(uid);
      if (!checked) throw NO_LINK(uid);
      return links.json(checked);
    },
    'links.recover': async ({ uid, since, dryRun }) => {
      await requireLiveWebhook(deps, uid);
      const outcome = await links.recover(uid, { since, dryRun });
      if (!outcome) throw NO_LINK(uid);
      return { ...(await links.json(outcome.link)), items: outcome.items };
    },
  };
}

/**
 * Webhook JSON adds `link` (§19) and the status adds what was recovered since the last wake
 * (§20): the other handlers' answers, completed here so that their modules need not know links.
 */
export function withLinkFields(handlers: ServiceHandlers, links: LinkKeeper): ServiceHandlers {
  const linkOf = async (uid: string) => {
    const link = await links.repo.get(uid);
    return link ? links.json(link) : null;
  };
  return {
    ...handlers,
    'webhooks.get': async (input, caller) => {
      const webhook = await handlers['webhooks.get'](input, caller);
      return { ...webhook, link: await linkOf(webhook.uid) };
    },
    'webhooks.list': async (input, caller) => {
      const { items } = await handlers['webhooks.list'](input, caller);
      const linked = new Map((await links.repo.live()).map((l) => [l.webhookUid, l]));
      const withLink = async (w: (typeof items)[number]) => {
        const link = linked.get(w.uid);
        return { ...w, link: link ? await links.json(link) : null };
      };
      return { items: await Promise.all(items.map(withLink)) };
    },
    'relay.status': async (input, caller) => {
      const status = await handlers['relay.status'](input, caller);
      if (!status.lastWake) return status;
      const recovered = await links.repo.arrivedSince(Date.parse(status.lastWake.at));
      return { ...status, lastWake: { ...status.lastWake, recovered } };
    },
  };
}
