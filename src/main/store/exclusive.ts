import type { Store } from './store.js';

const RETRY_MS = 100;

/**
 * Runs `fn` once no other relay on the store runs the job of this name, waiting for it (up to
 * `timeoutMs`) rather than skipping: definition sync must apply on every relay's start, one after
 * the other (the later ones find nothing left to change).
 */
export async function whenExclusive<T>(
  store: Pick<Store, 'exclusively'>,
  job: string,
  fn: () => Promise<T>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await store.exclusively(job, fn);
    if (outcome.ran) return outcome.value;
    if (Date.now() >= deadline) {
      throw new Error(`Another relay has held the ${job} job for over ${timeoutMs / 1000} s.`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
