/**
 * The fuzz load for the memory benchmark, in a process of its own (bundled by processes.ts, given
 * one JSON argument): `count` requests, `concurrency` at a time, each drawn at random from what
 * senders and scanners send (deliveries from 2 bytes to the 256 KB limit, duplicates, bodies past
 * the limit declared or chunked, invalid JSON, wrong tokens, unknown webhooks, odd paths, other
 * methods). Prints one JSON line: the statuses seen and the requests that got no answer.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';

export interface FuzzOptions {
  webhookUrl: string;
  secret: string;
  count: number;
  concurrency: number;
  seed: number;
}

export interface FuzzResult {
  statuses: Record<string, number>;
  errors: number;
}

/** A small deterministic PRNG, so every run sends the same requests. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Shot {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
  chunked: boolean;
}

function shot(options: FuzzOptions, random: () => number, n: number): Shot {
  const url = new URL(options.webhookUrl);
  const auth = { authorization: `Bearer ${options.secret}` };
  const json = (bytes: number): Buffer =>
    Buffer.from(`{"n":${n},"pad":"${'x'.repeat(Math.max(0, bytes - 20))}"}`);
  const pick = random();
  const id = { 'x-service-delivery-id': `fuzz-${options.seed}-${n}` };
  if (pick < 0.3)
    return {
      method: 'POST',
      path: url.pathname,
      headers: { ...auth, ...id },
      body: json(2 + Math.floor(random() * 4096)),
      chunked: false,
    };
  if (pick < 0.4)
    return {
      method: 'POST',
      path: url.pathname,
      headers: { ...auth, ...id },
      body: json(Math.floor(random() * 262_000)),
      chunked: random() < 0.5,
    };
  if (pick < 0.45)
    return {
      method: 'POST',
      path: url.pathname,
      headers: { ...auth, 'x-service-delivery-id': 'fuzz-duplicate' },
      body: json(64),
      chunked: false,
    };
  if (pick < 0.52)
    return {
      method: 'POST',
      path: url.pathname,
      headers: auth,
      body: Buffer.alloc(262_145 + Math.floor(random() * 200_000), 0x20),
      chunked: random() < 0.5,
    };
  if (pick < 0.6)
    return {
      method: 'POST',
      path: url.pathname,
      headers: { ...auth, ...id },
      body: Buffer.from(`{"broken": ${n}`),
      chunked: false,
    };
  if (pick < 0.7)
    return {
      method: 'POST',
      path: url.pathname,
      headers: { authorization: 'Bearer wrong' },
      body: json(Math.floor(random() * 20_000)),
      chunked: false,
    };
  if (pick < 0.8)
    return {
      method: 'POST',
      path: `/webhooks/w/wh_${'q'.repeat(24)}`,
      headers: {},
      body: json(512),
      chunked: false,
    };
  if (pick < 0.88)
    return {
      method: 'POST',
      path: ['/webhooks/w/%2e%2e', '/webhooks/w/wh_%2Fx', '/', '/webhooks'][n % 4]!,
      headers: {},
      body: json(128),
      chunked: false,
    };
  if (pick < 0.95)
    return {
      method: ['GET', 'PUT', 'DELETE', 'PATCH'][n % 4]!,
      path: url.pathname,
      headers: auth,
      body: null,
      chunked: false,
    };
  return {
    method: 'POST',
    path: url.pathname,
    headers: { ...auth, ...id },
    body: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
    chunked: false,
  };
}

async function main(options: FuzzOptions): Promise<void> {
  const random = mulberry32(options.seed);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const { hostname, port } = new URL(options.webhookUrl);
  const result: FuzzResult = { statuses: {}, errors: 0 };
  let next = 0;
  const one = (s: Shot): Promise<void> =>
    new Promise((resolve) => {
      const headers = { ...s.headers };
      if (s.body && !s.chunked) headers['content-length'] = String(s.body.length);
      const req = request(
        { host: hostname, port, method: s.method, path: s.path, headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            const key = String(res.statusCode);
            result.statuses[key] = (result.statuses[key] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        result.errors++;
        resolve();
      });
      if (s.body && s.chunked) {
        for (let at = 0; at < s.body.length; at += 16_384)
          req.write(s.body.subarray(at, at + 16_384));
        req.end();
      } else req.end(s.body ?? undefined);
    });
  const worker = async (): Promise<void> => {
    while (next < options.count) await one(shot(options, random, next++));
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// Only when run as the load's own process, never when imported for its types.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(JSON.parse(process.argv[2] ?? '{}') as FuzzOptions);
}
