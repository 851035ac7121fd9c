import { startTestRelay, type TestRelay } from './relay.js';
import { storeConfig, type TestStoreKind } from './stores.js';

/**
 * A relay on the test's clock, on a data dir it is started on again days later (retention's and
 * the kept counts' tests). PostgreSQL counts the rate on the database's clock, not this one, and
 * the rate is not what such tests are about: it is lifted.
 */
export function startClockedRelay(
  storeKind: TestStoreKind,
  dataDir: string,
  now: () => number,
): Promise<TestRelay> {
  return startTestRelay({
    ...storeConfig(storeKind),
    dataDir,
    now,
    limits: { deliveriesPerMinute: 1_000_000 },
  });
}
