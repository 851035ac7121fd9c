import { performance } from 'node:perf_hooks';
import { afterEachCommit, type DeliveryBatchStore } from '../store/delivery-batch.js';

/** Any batch store, timed: how long each durable commit took (for the latency histogram). */
export function timedBatchStore(
  store: DeliveryBatchStore,
  observe: (seconds: number) => void,
): DeliveryBatchStore {
  return afterEachCommit(store, (_result, started) =>
    observe((performance.now() - started) / 1000),
  );
}
