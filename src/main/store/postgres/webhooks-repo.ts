import type { WebhooksRepository } from '../webhooks.js';
import { updateCall, webhooksCalls } from '../sql/webhooks.js';
import type { Queryable } from './client.js';
import { postgresRepository, runCall } from './queries.js';

/** sql/webhooks.ts on PostgreSQL: the same calls, the same records, deleted ones kept. */
export function createPostgresWebhooksRepository(q: Queryable): WebhooksRepository {
  const repo = postgresRepository(q, webhooksCalls);
  return {
    ...repo,
    update: async (uid, changes) => {
      const current = await repo.get(uid);
      if (!current || current.deletedAt !== null) return null;
      return runCall(q, updateCall({ ...current, ...changes }));
    },
  };
}
