import type { LinkRecovery } from '../../shared/contract/links.js';
import type { LinkRecord, LinksRepository } from '../store/links.js';
import { ProviderError, type ProviderClient } from './provider.js';
import { RECOVERY_WINDOW_MS } from './recovery-windows.js';

export interface RecoveredItem {
  at: string;
  providerDeliveryId: string;
  event: string | null;
  outcome: 'asked' | 'already here' | 'failed' | 'would ask';
}

export interface RecoveryOutcome {
  recovery: LinkRecovery;
  items: RecoveredItem[];
  /** Where the next recovery starts; unchanged when this one could not finish. */
  recoveredThrough: number | null;
}

const message = (error: unknown): string =>
  error instanceof ProviderError ? error.message : String(error);

/**
 * One recovery of one link (PRODUCT §19): the provider's failed deliveries since the last
 * recovery (at most its window), less those whose identity is Accepted here, each claimed in the
 * ledger before the provider is asked, so that no provider delivery is asked for twice: not by a
 * second recovery, another relay, or this one after a crash.
 */
export async function recoverLink(options: {
  link: LinkRecord;
  client: ProviderClient;
  links: LinksRepository;
  now: () => number;
  since?: number;
  dryRun: boolean;
  /** Told each identity asked for, before the provider is asked (what arrives is marked). */
  onClaimed?: (identity: string) => void;
}): Promise<RecoveryOutcome> {
  const { link, client, links, now } = options;
  const startedAt = now();
  const windowStart = startedAt - RECOVERY_WINDOW_MS[link.kind];
  const from = Math.max(options.since ?? link.recoveredThrough ?? windowStart, windowStart);
  const recovery: LinkRecovery = {
    at: new Date(startedAt).toISOString(),
    since: new Date(from).toISOString(),
    asked: 0,
    redelivered: 0,
    alreadyHere: 0,
    failed: 0,
    errors: [],
  };
  const items: RecoveredItem[] = [];
  let failed;
  try {
    failed = await client.failedDeliveries(from);
  } catch (error) {
    recovery.errors.push(message(error));
    return { recovery, items, recoveredThrough: link.recoveredThrough };
  }
  for (const delivery of failed) {
    const item = (outcome: RecoveredItem['outcome']) =>
      items.push({
        at: new Date(delivery.failedAt).toISOString(),
        providerDeliveryId: delivery.providerDeliveryId,
        event: delivery.event,
        outcome,
      });
    if (await links.acceptedHere(link.webhookUid, delivery.identity)) {
      recovery.alreadyHere++;
      item('already here');
      continue;
    }
    if (options.dryRun) {
      const before = await links.askOutcome(link.webhookUid, delivery.providerDeliveryId);
      if (before === null || before === 'failed') item('would ask');
      continue;
    }
    const claimed = await links.claimAsk({
      webhookUid: link.webhookUid,
      providerDeliveryId: delivery.providerDeliveryId,
      identity: delivery.identity,
      event: delivery.event,
      failedAt: delivery.failedAt,
      askedAt: now(),
    });
    if (!claimed) continue;
    options.onClaimed?.(delivery.identity);
    recovery.asked++;
    try {
      await client.redeliver(delivery);
      await links.settleAsk(link.webhookUid, delivery.providerDeliveryId, 'asked');
      recovery.redelivered++;
      item('asked');
    } catch (error) {
      await links.settleAsk(link.webhookUid, delivery.providerDeliveryId, 'failed');
      recovery.failed++;
      item('failed');
      const text = message(error);
      if (!recovery.errors.includes(text)) recovery.errors.push(text);
    }
  }
  const finished = recovery.failed === 0 && !options.dryRun;
  return { recovery, items, recoveredThrough: finished ? startedAt : link.recoveredThrough };
}
