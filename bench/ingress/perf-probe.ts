/**
 * CPU samples of one relay's main thread under `wrk` at 1 KB, from `perf` (Linux), not V8's own
 * profiler: `--cpu-prof` samples on a timer whether the thread runs or waits for a core, so on a
 * shared two-core machine a call that wakes another thread (a `postMessage`, a socket write)
 * collects the samples of the time the thread was preempted there. `perf record -t` counts only
 * the thread's own CPU. JS frames are named through `--perf-basic-prof`.
 *   node --import tsx bench/ingress/perf-probe.ts <bundle.mjs | bench/relay-server.ts> [seconds] [out.txt]
 * Prints the hottest symbols (self) of the main thread; the perf script text goes to `out.txt`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRelayInfo } from '../relay-server.js';
import { launcherEnv, launcherFlags, startServer } from './processes.js';
import { runWrk } from './wrk-load.js';

const [script = 'bench/relay-server.ts', seconds = '8', out] = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), 'hookport-perf-'));
const server = await startServer<BenchRelayInfo>(
  script,
  [work, 'raised'],
  script.endsWith('.mjs') ? [] : ['src/main/store/sqlite/writer-thread.ts'],
  [...launcherFlags(), '--perf-basic-prof-only-functions', '--interpreted-frames-native-stack'],
  launcherEnv(),
);
const pid = server.child.pid!;
const headers = { authorization: `Bearer ${server.info.secret ?? ''}` };
const load = { url: server.info.webhookUrl, bodyBytes: 1024, connections: 50, headers };
try {
  // A warm-up round: the relay's code optimized before anything is counted.
  await runWrk({ ...load, seconds: 2, idPrefix: `warm-${Date.now()}` });
  const data = join(work, 'perf.data');
  const perf = spawn(
    'perf',
    ['record', '-q', '-g', '-e', 'cpu-clock', '-F', '1000', '-t', String(pid), '-o', data],
    {
      stdio: 'inherit',
    },
  );
  const result = await runWrk({
    ...load,
    seconds: Number(seconds),
    idPrefix: `perf-${Date.now()}`,
  });
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
  const answered = Object.values(result.statuses).reduce((a, b) => a + b, 0);
  console.log(`${Math.round(result.requestsPerSecond)} req/s, ${answered} answered`);
  const report = spawn(
    'perf',
    ['report', '-i', data, '--stdio', '--no-children', '--sort', 'sym', '--percent-limit', '0.3'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  report.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  await new Promise((resolve) => report.once('exit', resolve));
  const lines = text.split('\n').filter((l) => /^\s+[0-9.]+%/.test(l));
  console.log(lines.slice(0, 70).join('\n'));
  if (out) {
    const dump = spawn('sh', ['-c', `perf script -i ${data} > ${out}`], { stdio: 'inherit' });
    await new Promise((resolve) => dump.once('exit', resolve));
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
