/**
 * Memory under hostile input (issue 15): the relay, run as `hookport` runs it, takes
 * 25,000 fuzzed requests (bench/ingress/fuzz-load.ts: deliveries up to the 256 KB limit,
 * duplicates, bodies past the limit, invalid JSON, wrong tokens, unknown webhooks, odd paths,
 * other methods), 20 at a time. Reported: the relay's RSS before and after and the difference
 * (target ≤ +50 MB), and every status seen (never a 5xx, every request answered).
 * BENCH_FUZZ_REQUESTS (default 25,000) sets the count. Then issue 24's row: GitHub-signed
 * deliveries' p99 and loss while an absurd Content-Length flood runs, against a quiet run
 * (bench/ingress/absurd-length-row.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { absurdLengthRow } from '../ingress/absurd-length-row.js';
import { launcherEnv, launcherFlags, runFuzz, startServer } from '../ingress/processes.js';
import type { BenchRelayInfo } from '../relay-server.js';
import type { BenchSuite } from './index.js';

const COUNT = Number(process.env.BENCH_FUZZ_REQUESTS ?? 25_000);
const MB = 1024 * 1024;

async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hookport-bench-fuzz-'));
  const relay = await startServer<BenchRelayInfo>(
    'bench/relay-server.ts',
    [dataDir, 'raised'],
    ['src/main/store/sqlite/writer-thread.ts'],
    launcherFlags(),
    launcherEnv(),
  );
  try {
    const before = await relay.rss();
    const startedAt = Date.now();
    const result = await runFuzz({
      webhookUrl: relay.info.webhookUrl,
      secret: relay.info.secret ?? '',
      count: COUNT,
      concurrency: 20,
      seed: 15,
    });
    const seconds = (Date.now() - startedAt) / 1000;
    const after = await relay.rss();
    const grew = after - before;
    const statuses = Object.entries(result.statuses)
      .map(([status, n]) => `${status}×${n}`)
      .join(' ');
    const serverErrors = Object.keys(result.statuses).filter((s) => s.startsWith('5'));
    console.log(`${COUNT.toLocaleString('en-US')} fuzzed requests in ${seconds.toFixed(0)} s, 20 at a time
statuses      ${statuses}${result.errors > 0 ? ` no answer×${result.errors}` : ''}${serverErrors.length > 0 ? '  (5xx: MISSES target)' : ''}
relay RSS     ${(before / MB).toFixed(0)} MB before, ${(after / MB).toFixed(0)} MB after: +${(grew / MB).toFixed(0)} MB (target ≤ +50 MB: ${grew <= 50 * MB ? 'meets target' : 'MISSES target'})`);
  } finally {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runAll(): Promise<void> {
  await run();
  await absurdLengthRow();
}

export const fuzzSuite: BenchSuite = { name: 'fuzz', run: runAll };
