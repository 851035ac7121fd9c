/**
 * The seed's own scale (issue 28): a week at the full rate. A relay's SQLite file is seeded with
 * `--entries` log entries (default 1,000,000; 60 % in one webhook, the rest over 19 others,
 * 1–2 KB of JSON, spread over 8 days so that a day is past the 7 days of retention), the search
 * index built for all but the newest 5 % (as on a relay that ran all week and was stopped). A
 * relay is started on it while a genuine sender posts 5 deliveries a second, and the same sender
 * is timed on an empty relay first, in the same run:
 *   baseline  the sender on the empty relay: p50 / p99 / max
 *   measured  the same on the week's relay from its first second, while retention prunes the
 *             oldest day and the index catches up. Targets: p99 ≤ 2× the baseline, max < 250 ms.
 * Then every read the UI makes, on the busy webhook (targets < 300 ms), the event loop's longest
 * delay, the index's catch-up rate, and the file's size before and after retention; and the file
 * over two simulated weeks (a day added and pruned at a time: page reuse, no vacuum).
 *   npm run bench -- scale --entries 100000 --seconds 60
 * `--prune-wait <s>` bounds the wait for retention before the reads (default 30 min); `--week-entries 0` skips the two weeks; `--busy-entries <n>` sets the busy webhook's share (default 60 %); `--reuse-seed <dir>` keeps the seed for the next run; `--trace` and `--cpu-prof <dir>` probe the week's relay.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startCore } from '../../src/main/core.js';
import { silentLogger } from '../../src/main/log.js';
import { startServer, type ServerProcess } from '../ingress/processes.js';
import { pacedSender, type SenderResult } from '../scale/paced-sender.js';
import type { ScaleRelayInfo } from '../scale/scale-relay.js';
import { bulkSeed } from '../scale/bulk-seed.js';
import { twoWeeksOfFileSize } from '../scale/two-weeks.js';
import {
  ask,
  besideReads,
  besideRow,
  countStorm,
  loadAverage,
  ms,
  printReads,
  senderRow,
  stormRow,
  timeReads,
  uiReads,
} from '../scale/ui-reads.js';
import { arg, mb, RELAY, WEBHOOKS, WRITER_THREAD } from '../scale/suite-common.js';
import type { BenchSuite } from './index.js';

const fileBytes = (file: string): number =>
  ['', '-wal'].reduce((sum, suffix) => {
    try {
      return sum + statSync(file + suffix).size;
    } catch {
      return sum;
    }
  }, 0);

/** The factory's webhooks, created as the UI would, then the week written into the file. */
async function seed(
  dataDir: string,
  entries: number,
): Promise<{ busyUid: string; rareOrder: number }> {
  const core = await startCore({
    dataDir,
    ingress: { host: '127.0.0.1', port: 0 },
    admin: null,
    log: silentLogger,
    secretBackend: 'file',
    adminTokenFromEnv: undefined,
    masterKeyFromEnv: undefined,
  });
  const uids: string[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const created = await core.service['webhooks.create'](
      { factory: 'default', name: i === 0 ? 'busy' : `w${i}`, authMode: 'token' },
      { role: 'manage' },
    );
    uids.push(created.webhook.uid);
  }
  await core.stop();
  const leave = Math.round(entries * 0.05);
  const week = bulkSeed(
    join(dataDir, 'hookport.sqlite'),
    // `--busy-entries`: the busy webhook's own count (the issue's factory: 600,000 of 2,000,000).
    {
      entries,
      mainShare: arg('busy-entries', entries * 0.6) / entries,
      webhookUids: uids,
      days: 8,
      endAt: Date.now(),
    },
    leave,
    (line) => console.log(`  ${line}`),
  );
  const perS = (n: number, took: number): string => `${(n / (took / 1000)).toFixed(0)} entries/s`;
  console.log(
    `Seeded ${entries.toLocaleString('en-US')} entries (${week.perWebhook[0]!.toLocaleString('en-US')} in the busy webhook, ` +
      `${mb(week.payloadBytes)} of payloads) in ${ms(week.seededMs)} (${perS(entries, week.seededMs)}); ` +
      `indexed all but ${leave.toLocaleString('en-US')} in ${ms(week.indexedMs)} (${perS(entries - leave, week.indexedMs)}, in bulk), ` +
      `merged in ${ms(week.mergedMs)}`,
  );
  return { busyUid: uids[0]!, rareOrder: week.rareOrder };
}

/**
 * `--reuse-seed <dir>`: the seeded data dir is kept there (a copy) on the first run and copied
 * back on the next ones, to measure a change without seeding again (the entries then are as many
 * minutes old as the copy).
 */
async function seedOrReuse(
  dataDir: string,
  entries: number,
): Promise<{ busyUid: string; rareOrder: number }> {
  const kept = textArg('reuse-seed');
  const shape = kept && join(kept, 'seeded.json');
  if (kept && shape && existsSync(shape)) {
    cpSync(kept, dataDir, { recursive: true });
    // The copy's gigabytes are still dirty in the page cache: flushed while the relay runs, they
    // made every commit wait on the disk (20–50 ms each, fsync or not) for its first minute.
    execFileSync('sync');
    const seeded = JSON.parse(readFileSync(shape, 'utf8')) as {
      busyUid: string;
      rareOrder: number;
      entries: number;
    };
    if (seeded.entries !== entries)
      throw new Error(`${kept} holds ${seeded.entries} entries, not ${entries}`);
    console.log(`Reused the seed in ${kept}`);
    return seeded;
  }
  const seeded = await seed(dataDir, entries);
  if (kept && shape) {
    cpSync(dataDir, kept, { recursive: true });
    writeFileSync(shape, JSON.stringify({ ...seeded, entries }));
  }
  return seeded;
}

const flag = (name: string): boolean => process.argv.includes(`--${name}`);
function textArg(name: string): string | null {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? null) : null;
}

/** `--trace`: slow main-thread statements and loop gaps on stderr; `--cpu-prof <dir>`: a V8 profile. */
async function startRelay(
  dataDir: string,
  probed = false,
): Promise<{ relay: ServerProcess<ScaleRelayInfo>; spawnedToReadyMs: number }> {
  const started = performance.now();
  const profileDir = probed ? textArg('cpu-prof') : null;
  const relay = await startServer<ScaleRelayInfo>(
    RELAY,
    [dataDir, ...(probed && flag('trace') ? ['--trace'] : [])],
    [WRITER_THREAD],
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  return { relay, spawnedToReadyMs: performance.now() - started };
}

async function run(): Promise<void> {
  const entries = arg('entries', 1_000_000);
  const seconds = arg('seconds', 300);
  const perSecond = 5;
  const emptyDir = mkdtempSync(join(tmpdir(), 'hookport-scale-empty-'));
  const weekDir = mkdtempSync(join(tmpdir(), 'hookport-scale-week-'));
  try {
    // The baseline: the same sender on an empty relay.
    const loads: string[] = [`empty relay's start ${await loadAverage()}`];
    const empty = await startRelay(emptyDir);
    const quiet = await pacedSender({
      url: empty.relay.info.senderUrl,
      secret: empty.relay.info.senderSecret,
      perSecond,
      seconds,
    });
    const quietLoop = await ask<{ loopMaxMs: number }>(empty.relay, 'loop');
    await empty.relay.stop();

    const { busyUid, rareOrder } = await seedOrReuse(weekDir, entries);
    const file = join(weekDir, 'hookport.sqlite');
    const before = fileBytes(file);

    loads.push(`the week's start ${await loadAverage()}`);
    const { relay, spawnedToReadyMs } = await startRelay(weekDir, true);
    const { info } = relay;
    let prunedAt: number | null = null;
    let pruned = '';
    const startedAt = performance.now();
    relay.child.on('message', (message: { log?: string }) => {
      if (message.log?.startsWith('[retention] pruned')) {
        prunedAt = performance.now() - startedAt;
        pruned = message.log;
      } else if (message.log) console.log(`relay: ${message.log}`);
    });
    const pendingAtStart = (await ask<{ pending: number }>(relay, 'pending')).pending;
    // The loop's delay from here on: the process's start (module loading) is timed apart.
    await ask(relay, 'loop');
    const sending = pacedSender({
      url: info.senderUrl,
      secret: info.senderSecret,
      perSecond,
      seconds,
    });
    // /metrics as a scraper asks it, every 15 s while the sender runs.
    const scrapes: number[] = [];
    const scraping = (async () => {
      for (let t = 0; t < seconds; t += 15) {
        await new Promise((resolve) => setTimeout(resolve, 15_000));
        const started = performance.now();
        await (
          await fetch(`${info.adminUrl}/metrics`, {
            headers: { authorization: `Bearer ${info.adminToken}` },
          })
        ).text();
        scrapes.push(performance.now() - started);
      }
    })();
    const loaded = await sending;
    await scraping;
    const loopDuring = await ask<{ loopMaxMs: number; loopP99Ms: number }>(relay, 'loop');
    const pendingAfter = (await ask<{ pending: number }>(relay, 'pending')).pending;
    const catchUpRate = (pendingAtStart - pendingAfter) / seconds;
    // Retention may still be at work on a large file: the reads are of the pruned log.
    const pruneWaitMs = arg('prune-wait', 30 * 60) * 1000;
    while (prunedAt === null && performance.now() - startedAt < pruneWaitMs) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const afterPrune = fileBytes(file);

    const reads = uiReads(busyUid, rareOrder);
    loads.push(`the reads ${await loadAverage()}`);
    // The sender goes on while the UI reads: a read that holds the event loop holds it too.
    await ask(relay, 'loop');
    const beside = await besideReads(info, () => timeReads(info, reads));
    const loopReads = await ask<{ loopMaxMs: number; loopP99Ms: number }>(relay, 'loop');
    const timed = beside.reads;
    const storm = await besideReads(info, () => countStorm(info, busyUid));
    await relay.stop();

    console.log(
      `\nStarted on the week: listening ${ms(info.readyMs)} after the process began (${ms(spawnedToReadyMs)} from spawn, with bundling); ` +
        `the empty relay: ${ms(empty.relay.info.readyMs)} (${ms(empty.spawnedToReadyMs)})`,
    );
    console.log(`Load average (1, 5, 15 min): ${loads.join('; ')}`);
    console.log(`Sender: ${perSecond} deliveries/s for ${seconds} s from the first second\n`);
    console.log('| relay | sent | answered | not 202 | p50 | p99 | max |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    console.log(senderRow('empty (baseline)', quiet));
    console.log(senderRow(`the week (${entries.toLocaleString('en-US')} entries)`, loaded));
    const slow = (r: SenderResult): string =>
      r.slowest.map((s) => `${ms(s.ms)} at ${s.atS.toFixed(1)} s`).join(', ');
    console.log(`\nSlowest on the empty relay: ${slow(quiet)}`);
    console.log(`Slowest on the week's relay: ${slow(loaded)}`);
    console.log(
      `\np99 ratio ${(loaded.p99Ms / Math.max(quiet.p99Ms, 0.001)).toFixed(2)}× (target ≤ 2×); max ${ms(loaded.maxMs)} (target < 250 ms)`,
    );
    console.log(
      `Event loop, longest delay: empty relay ${ms(quietLoop.loopMaxMs)}, the week ${ms(loopDuring.loopMaxMs)} (p99 ${ms(loopDuring.loopP99Ms)})`,
    );
    console.log(`/metrics while sending: ${scrapes.map(ms).join(', ')}`);
    console.log(
      `Retention: ${pruned || 'not finished'}${prunedAt === null ? '' : `, done ${(prunedAt / 1000).toFixed(0)} s after start`}`,
    );
    console.log(
      `Search index catch-up: ${pendingAtStart.toLocaleString('en-US')} queued at start, ${pendingAfter.toLocaleString('en-US')} after ${seconds} s (${catchUpRate.toFixed(0)} entries/s beside the sender and retention)`,
    );
    console.log(`File (with its WAL): ${mb(before)} before, ${mb(afterPrune)} after retention\n`);
    printReads(timed);
    console.log(besideRow(beside.sender, loopReads));
    console.log(stormRow(storm.reads, storm.sender, quiet));

    const weekEntries = Math.min(entries, arg('week-entries', 100_000));
    if (weekEntries > 0) await twoWeeksOfFileSize(weekEntries);
  } finally {
    rmSync(emptyDir, { recursive: true, force: true });
    rmSync(weekDir, { recursive: true, force: true });
  }
}

export const scaleSuite: BenchSuite = { name: 'scale (a week at the full rate)', run };
