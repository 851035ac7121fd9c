import { join } from 'node:path';
import type { CoreConfig } from '../../src/main/config.js';
import { DEDUPE_WINDOW_MS } from '../../src/main/ingress/limits.js';
import { openPostgresStore } from '../../src/main/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../src/main/store/sqlite/sqlite-store.js';
import type { StoreKind } from '../../src/main/store/store.js';
import { createTestDatabase } from './postgres-databases.js';

/**
 * The stores the parameterized suites (ingress, dedupe, store, runs) run against, each suite
 * once per kind: `describe.each(storeKinds)('… (%s)', (storeKind) => …)`.
 */
export const storeKinds = ['sqlite', 'postgres'] as const satisfies readonly StoreKind[];
export type TestStoreKind = (typeof storeKinds)[number];

/** Any 32 bytes: the relays of one test file share it, as replicas of one database must. */
const TEST_MASTER_KEY = 'a1'.repeat(32);

// Each data dir gets a database of its own in the run's shared cluster.
const databases = new Map<string, Promise<string>>();

function databaseFor(dataDir: string): Promise<string> {
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = createTestDatabase()));
  return url;
}

/**
 * What `startTestRelay` needs to keep a relay's data in this kind of store: spread it into the
 * overrides. The store is opened per start and closed when the relay stops; a relay started
 * again on the same data dir finds the data of the one before (the same SQLite file, the same
 * PostgreSQL database), as the retention and restart tests need.
 */
export function storeConfig(kind: TestStoreKind): Pick<CoreConfig, 'openStore'> {
  switch (kind) {
    case 'sqlite':
      return {
        openStore: ({ dataDir, log }) =>
          openSqliteStore(join(dataDir, 'hookport.sqlite'), {
            log,
            dedupeWindowMs: DEDUPE_WINDOW_MS,
          }),
      };
    case 'postgres':
      return {
        openStore: async ({ dataDir, log }) =>
          openPostgresStore(await databaseFor(dataDir), {
            masterKey: TEST_MASTER_KEY,
            dedupeWindowMs: DEDUPE_WINDOW_MS,
            log,
          }),
      };
  }
}
