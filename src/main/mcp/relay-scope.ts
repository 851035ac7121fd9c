import { WEBHOOK_UID_PATTERN } from '../../shared/contract/common.js';
import type { Webhook } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import type { ContractCall } from './tool.js';

/** The factories a tool looks at: the one named, else every factory of the relay. */
export async function factoriesOf(call: ContractCall, factory?: string): Promise<string[]> {
  if (factory !== undefined) return [factory];
  return (await call('factories.list', {})).items.map((f) => f.id);
}

/** Every live webhook of the relay (or of one factory), in each factory's order. */
export async function allWebhooks(call: ContractCall, factory?: string): Promise<Webhook[]> {
  const lists = await Promise.all(
    (await factoriesOf(call, factory)).map((id) => call('webhooks.list', { factory: id })),
  );
  return lists.flatMap((list) => list.items);
}

/**
 * The webhooks a search covers: a UID as given (a deleted webhook's log stays readable), a name
 * looked up among the live ones, or all of them.
 */
export async function webhooksNamed(
  call: ContractCall,
  webhook: string | undefined,
): Promise<{ uid: string; name: string | null }[]> {
  const live = await allWebhooks(call);
  if (webhook === undefined) return live.map((w) => ({ uid: w.uid, name: w.name }));
  if (WEBHOOK_UID_PATTERN.test(webhook)) {
    return [{ uid: webhook, name: live.find((w) => w.uid === webhook)?.name ?? null }];
  }
  const named = live.filter((w) => w.name === webhook);
  if (named.length === 0) {
    throw new ApiError(
      'not_found',
      `No webhook named "${webhook}"; list_webhooks shows each webhook's name and UID.`,
    );
  }
  if (named.length > 1) {
    throw new ApiError(
      'invalid_input',
      `Several factories have a webhook named "${webhook}" (${named.map((w) => w.uid).join(', ')}); give its UID.`,
      'webhook',
    );
  }
  return named.map((w) => ({ uid: w.uid, name: w.name }));
}
