import { join } from 'node:path';
import type { CoreConfig } from '../../src/main/config.js';
import { DEDUPE_WINDOW_MS } from '../../src/main/ingress/limits.js';
import { openSqliteStore } from '../../src/main/store/sqlite-store.js';
import type { StoreKind } from '../../src/main/store/store.js';

/**
 * The stores the parameterized suites (ingress, dedupe, store, runs) run against, each suite
 * once per kind: `describe.each(storeKinds)('… (%s)', (storeKind) => …)`. A new store is one
 * more entry here and one more case in `storeConfig`.
 */
export const storeKinds = ['sqlite'] as const satisfies readonly StoreKind[];
export type TestStoreKind = (typeof storeKinds)[number];

/**
 * What `startTestRelay` needs to keep a relay's data in this kind of store: spread it into the
 * overrides. The store is opened per start and closed when the relay stops; a relay started
 * again on the same data dir must find the data of the one before (the retention and restart
 * tests do that).
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
  }
}
