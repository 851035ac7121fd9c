/**
 * The relay's RSS after load, under environment variants, outside the full suite:
 *   node --import tsx bench/ingress/rss-probe.ts [seconds] [NAME=VALUE,… per variant …]
 * starts one relay per variant (the launcher's V8 flags and environment, plus the variant's
 * assignments; `-` for none), loads each with wrk at 1 KB and then 64 KB (50 connections, as
 * the ingress suite's accept rows do), variants interleaved, and prints each RSS idle and after
 * and its CPU per answered request (main thread and whole process, both sizes together).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRelayInfo } from '../relay-server.js';
import { mainThreadCpu, processesCpu } from './cpu-time.js';
import { launcherEnv, launcherFlags, startServer } from './processes.js';
import { runWrk } from './wrk-load.js';

const [seconds = '5', ...variants] = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), 'hookport-rss-'));
const MB = 1024 * 1024;
const parse = (variant: string): Record<string, string> =>
  variant === '-'
    ? {}
    : Object.fromEntries(variant.split(',').map((a) => a.split('=', 2) as [string, string]));
const relays = await Promise.all(
  (variants.length > 0 ? variants : ['-']).map(async (variant, i) => ({
    variant,
    server: await startServer<BenchRelayInfo>(
      'bench/relay-server.ts',
      [mkdtempSync(join(work, `relay-${i}`)), 'raised'],
      ['src/main/store/sqlite/writer-thread.ts'],
      launcherFlags(),
      { ...launcherEnv(), ...parse(variant) },
    ),
  })),
);
try {
  const idle = await Promise.all(relays.map((r) => r.server.rss()));
  const sum = (sample: Map<number, number>): number =>
    [...sample.values()].reduce((a, b) => a + b, 0);
  const cpu = relays.map(() => ({ main: 0, all: 0, answered: 0 }));
  for (const bodyBytes of [1024, 64 * 1024]) {
    for (const [i, { server }] of relays.entries()) {
      const pid = server.child.pid!;
      const before = [sum(mainThreadCpu(pid)), sum(processesCpu([pid]))];
      const result = await runWrk({
        url: server.info.webhookUrl,
        bodyBytes,
        connections: 50,
        seconds: Number(seconds),
        headers: { authorization: `Bearer ${server.info.secret ?? ''}` },
        idPrefix: `rss-${bodyBytes}-${Date.now()}`,
      });
      cpu[i]!.main += sum(mainThreadCpu(pid)) - before[0]!;
      cpu[i]!.all += sum(processesCpu([pid])) - before[1]!;
      cpu[i]!.answered += Object.values(result.statuses).reduce((a, b) => a + b, 0);
    }
  }
  const after = await Promise.all(relays.map((r) => r.server.rss()));
  relays.forEach(({ variant }, i) => {
    const mb = (bytes: number): string => `${(bytes / MB).toFixed(0)} MB`;
    const { main, all, answered } = cpu[i]!;
    const us = (ms: number): string => `${((ms * 1000) / answered).toFixed(0)} µs`;
    console.log(
      `${variant.padEnd(32)} idle ${mb(idle[i]!)} after ${mb(after[i]!)}; ${answered} answered, CPU per request main ${us(main)}, all ${us(all)}`,
    );
  });
} finally {
  await Promise.all(relays.map((r) => r.server.stop()));
  rmSync(work, { recursive: true, force: true });
}
