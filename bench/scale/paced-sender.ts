import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { realisticPayload, SeededRandom } from '../search-payloads.js';

export interface SenderResult {
  sent: number;
  answered: number;
  /** Answers other than 202 (or no answer). */
  failed: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The slowest answers: when each was sent (s after the first) and how long it took. */
  slowest: Array<{ atS: number; ms: number }>;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/**
 * A genuine sender, as a provider is: one delivery every 1 / `perSecond` s whatever the relay
 * is doing (never waiting for the last answer), each 1–2 KB of JSON with a Bearer token and a
 * delivery ID, timed from the request to the answer.
 */
export async function pacedSender(options: {
  /** Several: delivery i goes to the (i mod n)-th, as a round-robin load balancer sends. */
  url: string | readonly string[];
  secret: string;
  perSecond: number;
  seconds: number;
  /** Sends no more once aborted (what was sent is still awaited and counted). */
  stop?: AbortSignal;
}): Promise<SenderResult> {
  const random = new SeededRandom(7);
  const times: number[] = [];
  const timeline: Array<{ atS: number; ms: number }> = [];
  let failed = 0;
  const inFlight: Array<Promise<void>> = [];
  const urls = typeof options.url === 'string' ? [options.url] : options.url;
  const start = performance.now();
  const total = Math.round(options.perSecond * options.seconds);
  let i = 0;
  for (; i < total; i++) {
    const due = start + (i * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (options.stop?.aborted) break;
    const body = realisticPayload(random, 1024 + random.int(1024), 5_000_000 + i);
    const sent = performance.now();
    inFlight.push(
      fetch(urls[i % urls.length]!, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.secret}`,
          'content-type': 'application/json',
          'x-service-delivery-id': `scale-${i}-${Math.round(start)}`,
        },
        body,
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          times.push(performance.now() - sent);
          timeline.push({ atS: (sent - start) / 1000, ms: performance.now() - sent });
          if (response.status !== 202) failed++;
        },
        () => {
          failed++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    sent: i,
    answered: times.length,
    failed,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? 0,
    slowest: timeline.sort((a, b) => b.ms - a.ms).slice(0, 8),
  };
}
