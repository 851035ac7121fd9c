/**
 * How long the built relay (`npm run build`, then `bin/hookport.js serve`, as a user starts it)
 * takes from its process's spawn to the ingress answering a request, on a given data dir: the
 * issue 28 target is under 3 s on a week's log. Each run spawns a fresh process, polls the
 * ingress every 10 ms with a GET (any answer counts), then stops it with SIGTERM. Beside the
 * wall-clock time, the CPU time the process had used by then (its main and other threads).
 *   node --import tsx bench/scale/start-time.ts <data-dir> [runs] [--cpu-prof <dir>]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort } from '../../src/main/tunnels/free-port.js';

const [dataDir, runsArg] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: start-time.ts <data-dir> [runs] [--cpu-prof <dir>]');
const profileAt = process.argv.indexOf('--cpu-prof');
const profile =
  profileAt >= 0 ? ['--cpu-prof', `--cpu-prof-dir=${process.argv[profileAt + 1]}`] : [];
const runs = Number(runsArg ?? 3);

/** CPU time the process has used (Linux /proc; 0 elsewhere): less at the mercy of a loaded machine. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function once(): Promise<[wallMs: number, cpuMs: number]> {
  const [ingress, admin] = [await freeLoopbackPort(), await freeLoopbackPort()];
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=2',
      '--heap-growing-percent=100',
      ...profile,
      'bin/hookport.js',
      'serve',
      '--data-dir',
      dataDir!,
      '--ingress-port',
      String(ingress),
      '--admin-port',
      String(admin),
    ],
    { stdio: 'ignore', env: { ...process.env, MALLOC_ARENA_MAX: '2' } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error('the relay exited before it answered');
      try {
        await fetch(`http://127.0.0.1:${ingress}/`, { signal: AbortSignal.timeout(1_000) });
        return [performance.now() - started, cpuMs(child.pid!)];
      } catch {
        await sleep(10);
      }
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const times: Array<[number, number]> = [];
for (let i = 0; i < runs; i++) times.push(await once());
const shown = times.map(([wall, cpu]) => `${wall.toFixed(0)} ms (CPU ${cpu.toFixed(0)} ms)`);
console.log(`spawn to the ingress's first answer: ${shown.join(', ')}`);
