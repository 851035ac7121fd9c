import { useState } from 'react';
import type { RelayEvent } from '../../../shared/contract/events.js';
import type { Run, RunStatus } from '../../../shared/contract/runs.js';
import type { ApiError } from '../../../shared/errors.js';
import { useClient } from '../../app/client-context.js';
import { toApiError, useCall } from '../../app/use-call.js';

const PAGE = 50;

/** Runs change on run events; new ones are queued by deliveries that matched. */
export const concernsRuns = (event: RelayEvent): boolean =>
  event.type === 'run' || (event.type === 'delivery' && event.delivery.runIds.length > 0);

interface Older {
  /** The filter the older pages were read for. */
  key: string;
  items: Run[];
  nextBefore: string | null;
}

/**
 * The newest page stays live; older pages are fetched with `before` on demand and kept
 * (their runs have mostly finished, so they rarely change).
 */
export function useRunPages(
  status: RunStatus | undefined,
  automation: string | undefined,
): {
  items: Run[] | undefined;
  error: ApiError | undefined;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => Promise<void>;
} {
  const client = useClient();
  const first = useCall('runs.list', { status, automation, limit: PAGE }, concernsRuns);
  const key = JSON.stringify([status, automation]);
  const [older, setOlder] = useState<Older>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<ApiError>();
  const mine = older?.key === key ? older : undefined;
  const nextBefore = mine ? mine.nextBefore : (first.data?.nextBefore ?? null);

  let items: Run[] | undefined;
  if (first.data) {
    const seen = new Set(first.data.items.map((r) => r.id));
    items = [...first.data.items, ...(mine?.items ?? []).filter((r) => !seen.has(r.id))];
  }

  const loadMore = async (): Promise<void> => {
    if (nextBefore === null) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await client.call('runs.list', {
        status,
        automation,
        limit: PAGE,
        before: nextBefore,
      });
      setOlder({
        key,
        items: [...(mine?.items ?? []), ...page.items],
        nextBefore: page.nextBefore,
      });
    } catch (failure) {
      setMoreError(toApiError(failure));
    } finally {
      setLoadingMore(false);
    }
  };
  return {
    items,
    error: first.error ?? moreError,
    hasMore: nextBefore !== null,
    loadingMore,
    loadMore,
  };
}
