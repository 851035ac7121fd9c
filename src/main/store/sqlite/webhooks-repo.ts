import type { WebhookChanges, WebhooksRepository } from '../webhooks.js';
import { updateCall, webhooksCalls } from '../sql/webhooks.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';
import { queriesOn, sqliteRepository } from './queries.js';

/** sql/webhooks.ts on SQLite; `update` reads and writes in one synchronous step. */
export function createWebhooksRepository(db: Db): Sync<WebhooksRepository> {
  const queries = queriesOn(db);
  const repo = sqliteRepository(db, webhooksCalls);
  return {
    ...repo,
    update: (uid: string, changes: WebhookChanges) => {
      const current = repo.get(uid);
      if (!current || current.deletedAt !== null) return null;
      return queries.run(updateCall({ ...current, ...changes }));
    },
  };
}
