import type { ServerResponse } from 'node:http';
import type { CommitHealth, CommitHealthState } from '../store/commit-health.js';
import type { StoreKind } from '../store/store.js';
import { replyJson } from './reply.js';

const MESSAGES: Record<Extract<CommitHealthState, { ok: false }>['reason'], string> = {
  unreachable: 'The relay cannot reach its store.',
  timeout: 'The relay’s store did not commit in time.',
  refused: 'The relay’s store refuses writes.',
};

/**
 * GET /healthz on the ingress listener: 200 `{"ok":true,"store":…}` while the store commits, and
 * 503 with the reason (never the store's address or message) while it cannot, so that a load
 * balancer sends deliveries to a relay that can record them. The admin listener's /healthz
 * stays 200: it says the process is up (PRODUCT §3).
 */
export async function answerHealth(
  res: ServerResponse,
  storeKind: StoreKind,
  health: Pick<CommitHealth, 'check'> | undefined,
): Promise<void> {
  const state = health ? await health.check() : { ok: true as const };
  if (state.ok) return replyJson(res, 200, { ok: true, store: storeKind });
  replyJson(
    res,
    503,
    {
      ok: false,
      store: storeKind,
      error: {
        code: 'store_unavailable',
        message: `${MESSAGES[state.reason]} Deliveries are answered 503 until it can commit again.`,
        reason: state.reason,
        storeCode: state.code,
        since: new Date(state.since).toISOString(),
      },
    },
    ['Retry-After', '5', 'Cache-Control', 'no-store'],
  );
}
