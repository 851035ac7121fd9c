import { useEffect, useState } from 'react';
import type { Delivery } from '../../../shared/contract/deliveries.js';
import { useClient } from '../../app/client-context.js';

/** What the relay's reason for a form-encoded body says (PRODUCT.md §22): the fix names JSON. */
const NAMES_THE_FIX = 'application/json';

/**
 * The newest entry refused as a form-encoded body (GitHub's default content type) among these
 * webhooks' latest invalid-JSON refusals: Test filter says why nothing is there to test.
 */
export function useFormBodyRefusal(uids: readonly string[]): Delivery | null {
  const client = useClient();
  const key = [...uids].sort().join(',');
  const [found, setFound] = useState<{ key: string; entry: Delivery | null }>();
  useEffect(() => {
    if (key === '') return;
    let current = true;
    const reads = key
      .split(',')
      .map((uid) =>
        client.call('deliveries.list', { uid, label: 'Rejected (invalid JSON)', limit: 1 }),
      );
    void Promise.allSettled(reads).then((settled) => {
      if (!current) return;
      const entry =
        settled
          .flatMap((s) => (s.status === 'fulfilled' ? s.value.items : []))
          .filter((d) => d.reason?.includes(NAMES_THE_FIX) === true)
          .sort((a, b) => b.id.localeCompare(a.id))[0] ?? null;
      setFound({ key, entry });
    });
    return () => {
      current = false;
    };
  }, [client, key]);
  return found?.key === key ? found.entry : null;
}
