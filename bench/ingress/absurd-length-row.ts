/**
 * Issue 24's benchmark row: a relay (as `hookport` runs it, on SQLite) with a GitHub-signature
 * webhook takes GitHub-signed deliveries at a steady rate, first alone, then while 6 connections
 * flood the same webhook with headers-only requests declaring absurd Content-Lengths (each side
 * in a process of its own). Reported: the genuine deliveries' p50, p99 and loss in both runs
 * (target: 0 lost, attacked p99 within 2× of quiet), and the statuses the attacker got.
 * BENCH_ATTACK_DELIVERIES (default 200) and BENCH_ATTACK_RATE (default 20 a second) set the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRelayInfo } from '../relay-server.js';
import type { AttackResult, GenuineResult } from './absurd-length-load.js';
import { launcherEnv, launcherFlags, runAbsurdLength, startServer } from './processes.js';

const DELIVERIES = Number(process.env.BENCH_ATTACK_DELIVERIES ?? 200);
const PER_SECOND = Number(process.env.BENCH_ATTACK_RATE ?? 20);
const CONNECTIONS = 6;

const lostAs = (r: GenuineResult): string =>
  r.lost === 0
    ? ''
    : ` (${Object.entries(r.lostAs)
        .map(([why, n]) => `${why}×${n}`)
        .join(' ')})`;

export async function absurdLengthRow(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hookport-bench-attack-'));
  const relay = await startServer<BenchRelayInfo>(
    'bench/relay-server.ts',
    [dataDir, 'raised', 'github'],
    ['src/main/store/sqlite/writer-thread.ts'],
    launcherFlags(),
    launcherEnv(),
  );
  try {
    const send = () =>
      runAbsurdLength<GenuineResult>({
        role: 'genuine',
        webhookUrl: relay.info.webhookUrl,
        secret: relay.info.secret ?? '',
        deliveries: DELIVERIES,
        perSecond: PER_SECOND,
      });
    // Unmeasured: the relay's first commits start its writer thread and warm its code.
    await runAbsurdLength<GenuineResult>({
      role: 'genuine',
      webhookUrl: relay.info.webhookUrl,
      secret: relay.info.secret ?? '',
      deliveries: PER_SECOND * 2,
      perSecond: PER_SECOND,
    });
    const quiet = await send();
    const [attacked, attack] = await Promise.all([
      send(),
      runAbsurdLength<AttackResult>({
        role: 'attacker',
        webhookUrl: relay.info.webhookUrl,
        connections: CONNECTIONS,
        durationMs: (DELIVERIES / PER_SECOND) * 1000 + 500,
      }),
    ]);
    const line = (name: string, r: GenuineResult): string =>
      `${name.padEnd(9)} p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  lost ${r.lost}/${r.sent}${lostAs(r)}`;
    const statuses = Object.entries(attack.statuses)
      .map(([status, n]) => `${status === '0' ? 'no answer' : status}×${n}`)
      .join(' ');
    const ratio = attacked.p99Ms / quiet.p99Ms;
    const meets = attacked.lost === 0 && ratio <= 2;
    console.log(`absurd Content-Length attack: ${DELIVERIES} GitHub-signed deliveries at ${PER_SECOND}/s, quiet then beside ${CONNECTIONS} flooding connections
${line('quiet', quiet)}
${line('attacked', attacked)}   p99 ${ratio.toFixed(2)}× quiet (target: 0 lost, ≤ 2×: ${meets ? 'meets target' : 'MISSES target'})
attacker  ${statuses}`);
  } finally {
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
