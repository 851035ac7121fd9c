/**
 * Issue 24's attack, for the fuzz benchmark, in a process of its own (bundled by processes.ts,
 * given one JSON argument). As `genuine`: GitHub-signed deliveries at a steady rate (signed as
 * GitHub's "Validating webhook deliveries" documents: X-Hub-Signature-256 = sha256=HMAC-SHA256 of
 * the body, hex), each one's latency timed; prints its p50, p99 and how many were not 202. As
 * `attacker`: `connections` sockets in a loop, each sending only the head of a POST that
 * declares an absurd Content-Length (1e19, 2^53 + 1, 1e23, -5, +5, leading zeros, twice) until
 * `durationMs` has passed; prints the statuses it got.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { pathToFileURL } from 'node:url';

export type AbsurdLengthOptions =
  | {
      role: 'genuine';
      webhookUrl: string;
      secret: string;
      deliveries: number;
      perSecond: number;
    }
  | { role: 'attacker'; webhookUrl: string; connections: number; durationMs: number };

export interface GenuineResult {
  sent: number;
  lost: number;
  /** What the lost ones got: a status, or the client's error code. */
  lostAs: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

export interface AttackResult {
  statuses: Record<string, number>;
}

const LENGTHS: readonly string[][] = [
  ['10000000000000000000'],
  [String(2 ** 53 + 1)],
  ['100000000000000000000000'],
  ['-5'],
  ['+5'],
  ['000000000000000000000010000000000000000000'],
  ['10000000000000000000', '10000000000000000000'],
];

async function genuine(options: Extract<AbsurdLengthOptions, { role: 'genuine' }>) {
  const latencies: number[] = [];
  let lost = 0;
  const lostAs: Record<string, number> = {};
  const lose = (why: string): void => {
    lost++;
    lostAs[why] = (lostAs[why] ?? 0) + 1;
  };
  const one = async (n: number): Promise<void> => {
    const body = Buffer.from(JSON.stringify({ action: 'opened', number: n }));
    const signature = createHmac('sha256', options.secret).update(body).digest('hex');
    const started = performance.now();
    try {
      const response = await fetch(options.webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issues',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': `sha256=${signature}`,
        },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 202) lose(String(response.status));
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      lose(cause?.code ?? (error as Error).name);
    }
    latencies.push(performance.now() - started);
  };
  const gap = 1000 / options.perSecond;
  const start = performance.now();
  const sends: Array<Promise<void>> = [];
  for (let n = 0; n < options.deliveries; n++) {
    // On schedule, not after the previous answer: a slow answer does not slow the sender.
    const due = start + n * gap - performance.now();
    if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    sends.push(one(n));
  }
  await Promise.all(sends);
  latencies.sort((a, b) => a - b);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const result: GenuineResult = {
    sent: options.deliveries,
    lost,
    lostAs,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
  return result;
}

/** One headers-only request; resolves with the status the relay answered (0: none) once closed. */
function headersOnly(url: URL, lengths: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const done = (): void => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0));
    socket.on('close', done);
    socket.on('error', () => socket.destroy());
    const head = [
      `POST ${url.pathname} HTTP/1.1`,
      `Host: ${url.host}`,
      'X-Hub-Signature-256: sha256=0',
      ...lengths.map((length) => `Content-Length: ${length}`),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}

async function attacker(options: Extract<AbsurdLengthOptions, { role: 'attacker' }>) {
  const url = new URL(options.webhookUrl);
  const until = performance.now() + options.durationMs;
  const statuses: Record<string, number> = {};
  const loop = async (first: number): Promise<void> => {
    for (let i = first; performance.now() < until; i++) {
      const status = await headersOnly(url, LENGTHS[i % LENGTHS.length]!);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, i) => loop(i)));
  const result: AttackResult = { statuses };
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = JSON.parse(process.argv[2]!) as AbsurdLengthOptions;
  const result = options.role === 'genuine' ? await genuine(options) : await attacker(options);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
