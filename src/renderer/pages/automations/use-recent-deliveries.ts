import { useEffect, useRef, useState } from 'react';
import type { Delivery } from '../../../shared/contract/deliveries.js';
import type { ApiError } from '../../../shared/errors.js';
import { useClient, useRelayEvents } from '../../app/client-context.js';
import { toApiError } from '../../app/use-call.js';

const PER_WEBHOOK = 20;
const SHOWN = 40;
const EVENT_RELOAD_MS = 300;

interface Result {
  key: string;
  items?: Delivery[];
  error?: ApiError;
}

/**
 * The newest Accepted deliveries of several webhooks, merged newest first: the ones Test filter
 * can use (only Accepted deliveries keep a payload). Fresh as deliveries arrive.
 */
export function useRecentDeliveries(uids: readonly string[]): {
  items: Delivery[] | undefined;
  error: ApiError | undefined;
} {
  const client = useClient();
  const key = [...uids].sort().join(',');
  const [generation, setGeneration] = useState(0);
  const [result, setResult] = useState<Result>();

  useEffect(() => {
    if (key === '') return;
    let current = true;
    const reads = key
      .split(',')
      .map((uid) => client.call('deliveries.list', { uid, label: 'Accepted', limit: PER_WEBHOOK }));
    void Promise.allSettled(reads).then((settled) => {
      if (!current) return;
      const items = settled
        .flatMap((s) => (s.status === 'fulfilled' ? s.value.items : []))
        .sort((a, b) => b.receivedAt.localeCompare(a.receivedAt) || b.id.localeCompare(a.id))
        .slice(0, SHOWN);
      const failed = settled.find((s) => s.status === 'rejected');
      // One deleted webhook's log failing to read should not hide the others' deliveries.
      if (items.length === 0 && failed) setResult({ key, error: toApiError(failed.reason) });
      else setResult({ key, items });
    });
    return () => {
      current = false;
    };
  }, [client, key, generation]);

  // A burst of deliveries is one read a moment later, not one per delivery.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useRelayEvents((event) => {
    if (event.type !== 'delivery' || event.delivery.label !== 'Accepted') return;
    if (!key.split(',').includes(event.delivery.webhookUid) || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      setGeneration((g) => g + 1);
    }, EVENT_RELOAD_MS);
  });

  if (key === '') return { items: [], error: undefined };
  const mine = result?.key === key ? result : undefined;
  return { items: mine?.items, error: mine?.error };
}
