import { performance } from 'node:perf_hooks';
import { wrapCommit, type DeliveryBatchStore } from '../store/delivery-batch.js';

/** Any batch store, timed: how long each durable commit took (for the latency histogram). */
export function timedBatchStore(
  store: DeliveryBatchStore,
  observe: (seconds: number) => void,
): DeliveryBatchStore {
  // Not an async function: its frame would hold the batch, bodies and all, until the commit ends.
  return wrapCommit(store, (commit) => (batch) => {
    const started = performance.now();
    return commit(batch).then((result) => {
      observe((performance.now() - started) / 1000);
      return result;
    });
  });
}
