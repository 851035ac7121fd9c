/**
 * The load generator, in a process of its own (bundled by processes.ts, given one JSON argument) runs
 * autocannon with the given options and prints one JSON line of results. Each request carries a
 * unique `X-Service-Delivery-Id`, so the relay never takes the duplicate shortcut.
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { eventBody } from './event-body.js';

/** `padding`: one padded JSON string; `event`: a provider-like event (event-body.ts). */
export type BodyShape = 'padding' | 'event';

export interface LoadOptions {
  /** Several URLs share the connections round-robin, into one set of latencies. */
  url: string | string[];
  bodyBytes: number;
  body?: BodyShape;
  seconds: number;
  connections: number;
  headers: Record<string, string>;
  /** Prefix of the delivery IDs, distinct per run. */
  idPrefix: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
}

/** A JSON object of exactly `bytes` bytes. */
export function jsonBody(bytes: number): string {
  const shell = '{"event":"bench","padding":""}';
  return shell.replace('""', `"${'x'.repeat(bytes - shell.length)}"`);
}

async function main(options: LoadOptions): Promise<void> {
  let counter = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body === 'event' ? eventBody(options.bodyBytes) : jsonBody(options.bodyBytes),
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            'x-service-delivery-id': `${options.idPrefix}-${++counter}`,
          },
        }),
      },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats))
    statuses[status] = Number(count);
  const out: LoadResult = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

// Only when run as the load generator's own process, never when imported for its types.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(JSON.parse(process.argv[2] ?? '{}') as LoadOptions);
}
