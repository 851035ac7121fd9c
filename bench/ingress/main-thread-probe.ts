/**
 * A quick look at where the relay's main thread spends its time, outside the full suite:
 *   node --import tsx bench/ingress/main-thread-probe.ts [seconds] [rounds] [profile-dir]
 * starts bare node:http, e2, the relay and the relay without its search index (as the ingress
 * suite does), loads each with wrk at 1 KB in interleaved rounds and prints main-thread and
 * process CPU per answered request; with a profile dir, the relays run under `--cpu-prof`
 * (written there when they stop) for `npx speedscope` or Chrome's DevTools. GC=1: the relays run
 * with `--trace-gc-nvp`, and each row also prints its main thread's young collections per 1,000
 * requests, the bytes that makes per request (each collection frees a full 2 MB semi-space, the
 * launcher's), and the bytes V8 says the thread allocated between its collections (each
 * collection's `allocated=`, summed), per request: allocation, which load on the machine does
 * not move as it moves CPU time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRelayInfo } from '../relay-server.js';
import { mainThreadCpu, processesCpu } from './cpu-time.js';
import { launcherEnv, launcherFlags, startServer, type ServerProcess } from './processes.js';
import { runWrk } from './wrk-load.js';

const [seconds = '5', rounds = '3', profileDir] = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), 'hookport-probe-'));
const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
const traceGc = process.env.GC === '1' ? ['--trace-gc-nvp'] : [];
/** The launcher's `--max-semi-space-size=2` (MB): what one young collection frees, once grown. */
const SEMI_SPACE_BYTES = 2 * 1024 * 1024;
const sum = (sample: Map<number, number>): number =>
  [...sample.values()].reduce((a, b) => a + b, 0);

interface Target {
  name: string;
  server: ServerProcess<unknown>;
  url: string;
  headers: Record<string, string>;
  before?: () => Promise<void>;
  /** The main thread's young collections and bytes allocated so far (GC=1), else undefined. */
  scavenges?: () => GcCount;
}

interface GcCount {
  scavenges: number;
  /** Bytes allocated up to the last collection. */
  allocated: number;
}

/**
 * Counts `--trace-gc-nvp`'s young collections (`gc=s`) and sums every collection's `allocated=`
 * per isolate (the main thread's, the writer's, the index's); the main thread's is the one that
 * collects most often under ingress load (the writer thread's young generation sees a batch per
 * commit, the main thread's every request's objects).
 */
function countScavenges(server: ServerProcess<unknown>): () => GcCount {
  const counts = new Map<string, GcCount>();
  let rest = '';
  server.child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('latin1')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const isolate = /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
      const allocated = / allocated=(\d+)/.exec(line)?.[1];
      if (!isolate || allocated === undefined) continue;
      const count = counts.get(isolate) ?? { scavenges: 0, allocated: 0 };
      if (line.includes(' gc=s ')) count.scavenges++;
      count.allocated += Number(allocated);
      counts.set(isolate, count);
    }
  });
  return () => {
    let main: GcCount = { scavenges: 0, allocated: 0 };
    for (const count of counts.values()) if (count.scavenges > main.scavenges) main = count;
    return { ...main };
  };
}

/** BEFORE=<dir>: also runs `<dir>/relay-server.mjs`, an earlier build kept under out/, for A/B. */
const before = process.env.BEFORE;
const relay = async (name: string, options: string[], bundle?: string): Promise<Target> => {
  const server = await startServer<BenchRelayInfo>(
    bundle ?? 'bench/relay-server.ts',
    [mkdtempSync(join(work, name)), ...options],
    bundle ? [] : ['src/main/store/sqlite/writer-thread.ts'],
    [...launcherFlags(), ...profile, ...traceGc],
    launcherEnv(),
  );
  const headers = { authorization: `Bearer ${server.info.secret ?? ''}` };
  const notFound = options.includes('404');
  const url = notFound ? server.info.unknownWebhookUrl : server.info.webhookUrl;
  // The 429 path: the webhook's default 60 a minute, spent before each round.
  const before = options.includes('default') ? () => spendRate(url, headers) : undefined;
  const scavenges = traceGc.length > 0 ? countScavenges(server) : undefined;
  return { name, server, url, headers, before, scavenges };
};

/** Spends the webhook's delivery rate until it answers 429 (ingress suite: spendDeliveryRate). */
async function spendRate(url: string, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < 61; i++) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'x-service-delivery-id': `prefill-${Date.now()}-${i}` },
      body: '{}',
    });
    if (response.status === 429) return;
  }
  throw new Error('the delivery rate limit never answered 429');
}
const plain = async (name: string, script: string, threads: string[] = []): Promise<Target> => {
  const server = await startServer<{ url: string }>(
    script,
    [mkdtempSync(join(work, name))],
    threads,
  );
  return { name, server, url: server.info.url, headers: {} };
};

/** TARGETS=<names>: only these (default: all but the `before` ones, which need BEFORE). */
const wanted = (
  process.env.TARGETS ??
  'bare,e2,relay,relay-no-index,relay-404,relay-429,before,before-404,before-429'
)
  .split(',')
  .filter((name) => before || !name.startsWith('before'));
const starters: Record<string, () => Promise<Target>> = {
  bare: () => plain('bare', 'bench/ingress/bare-server.ts'),
  e2: () =>
    plain('e2', 'bench/ingress/worker-commit-server.ts', ['bench/ingress/worker-commit-writer.ts']),
  relay: () => relay('relay', ['raised']),
  'relay-no-index': () => relay('relay-no-index', ['raised', 'no-search']),
  'relay-404': () => relay('relay-404', ['raised', '404']),
  'relay-429': () => relay('relay-429', ['default']),
  before: () => relay('before', ['raised'], `${before}/relay-server.mjs`),
  'before-404': () => relay('before-404', ['raised', '404'], `${before}/relay-server.mjs`),
  'before-429': () => relay('before-429', ['default'], `${before}/relay-server.mjs`),
};
const targets: Target[] = [];
for (const name of wanted) targets.push(await starters[name]!());
const mains = new Map<string, number[]>();
const allocations = new Map<string, number[]>();
try {
  // One round uncounted first: each server's code optimized, its caches warm.
  for (let round = -1; round < Number(rounds); round++) {
    // Every other round in the opposite order: neither side always runs after the other.
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const pid = target.server.child.pid!;
      await target.before?.();
      const before = [sum(mainThreadCpu(pid)), sum(processesCpu([pid]))];
      const gcBefore = target.scavenges?.() ?? { scavenges: 0, allocated: 0 };
      const result = await runWrk({
        url: target.url,
        bodyBytes: 1024,
        connections: 50,
        seconds: Number(seconds),
        headers: target.headers,
        idPrefix: `${target.name}-${round}-${Date.now()}`,
      });
      const answered = Object.values(result.statuses).reduce((a, b) => a + b, 0);
      const main = ((sum(mainThreadCpu(pid)) - before[0]!) * 1000) / answered;
      const all = ((sum(processesCpu([pid])) - before[1]!) * 1000) / answered;
      const gcAfter = target.scavenges?.() ?? { scavenges: 0, allocated: 0 };
      const scavenged = gcAfter.scavenges - gcBefore.scavenges;
      const allocatedKb = (gcAfter.allocated - gcBefore.allocated) / answered / 1024;
      if (target.scavenges && round >= 0) {
        allocations.set(target.name, [...(allocations.get(target.name) ?? []), allocatedKb]);
      }
      const young = target.scavenges
        ? ` young GCs ${((scavenged * 1000) / answered).toFixed(1)}/1000 (${((scavenged * SEMI_SPACE_BYTES) / answered / 1024).toFixed(1)} KB per request) allocated ${allocatedKb.toFixed(2)} KB per request`
        : '';
      const line = `${Math.round(result.requestsPerSecond)} req/s main ${main.toFixed(0)} µs all ${all.toFixed(0)} µs ${JSON.stringify(result.statuses)}${young}`;
      if (round < 0) continue;
      mains.set(target.name, [...(mains.get(target.name) ?? []), main]);
      console.log(`${target.name.padEnd(16)} ${line}`);
    }
  }
  // Other load on the machine only adds CPU per request: the lowest round is the least disturbed.
  console.log('\nmain thread µs per request, lowest and median round:');
  for (const [name, values] of mains) {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `${name.padEnd(16)} ${sorted[0]!.toFixed(0).padStart(5)} ${median.toFixed(0).padStart(5)}`,
    );
  }
  if (allocations.size > 0)
    console.log('\nallocated KB per request, lowest, median and highest round:');
  for (const [name, values] of allocations) {
    const sorted = [...values].sort((a, b) => a - b);
    const [low, mid, high] = [sorted[0]!, sorted[Math.floor(sorted.length / 2)]!, sorted.at(-1)!];
    console.log(`${name.padEnd(16)} ${[low, mid, high].map((v) => v.toFixed(2)).join(' ')}`);
  }
  // A/B: each round's relay against the earlier build in the same round, the median of those.
  const pairs: Array<[string, string]> = [
    ['relay', 'before'],
    ['relay-404', 'before-404'],
    ['relay-429', 'before-429'],
  ];
  for (const [after, earlier] of pairs) {
    const a = mains.get(after);
    const b = mains.get(earlier);
    if (!a || !b) continue;
    const ratios = a.map((value, i) => value / b[i]!).sort((x, y) => x - y);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const lower = ratios.filter((r) => r < 1).length;
    console.log(
      `${after} / ${earlier}: median ${median.toFixed(3)} (${lower} of ${ratios.length} rounds lower)`,
    );
  }
} finally {
  await Promise.all(targets.map((t) => t.server.stop()));
  rmSync(work, { recursive: true, force: true });
}
