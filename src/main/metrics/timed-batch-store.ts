import { performance } from 'node:perf_hooks';
import { wrapCommit, type DeliveryBatchStore } from '../store/delivery-batch.js';

/** Any batch store, timed: how long each durable commit took (for the latency histogram). */
export function timedBatchStore(
  store: DeliveryBatchStore,
  observe: (seconds: number) => void,
): DeliveryBatchStore {
  return wrapCommit(store, (commit) => async (batch) => {
    const started = performance.now();
    const result = await commit(batch);
    observe((performance.now() - started) / 1000);
    return result;
  });
}
