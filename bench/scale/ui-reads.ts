/**
 * What both scale suites (SQLite and PostgreSQL) time after the sender: every read the UI makes
 * on the busy webhook, each three times (the median printed, with the total it answered), with
 * the sender going on beside them, and the small helpers they share.
 */
import { performance } from 'node:perf_hooks';
import type { ServerProcess } from '../ingress/processes.js';
import { pacedSender, type SenderResult } from './paced-sender.js';
import type { ScaleRelayInfo } from './scale-relay.js';

export const DAY_MS = 24 * 3_600_000;

export type Read = [name: string, path: string];

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) out = CROCKFORD[t % 32]! + out;
  return out;
}

/**
 * Every read the UI makes, on the busy webhook, as of now. A text search is read as the UI reads
 * it (the page with `total=later`, then `/count`) before the same search with its total in one
 * answer: each row's first read is the one no kept total helps.
 */
export function uiReads(busyUid: string, rareOrder: number): Read[] {
  const deliveries = `/api/webhooks/${busyUid}/deliveries?limit=200`;
  const day = Date.now() - DAY_MS;
  // A deep page: the entries of four days ago.
  const deepBefore = `dlv_${encodeTime(Date.now() - 4 * DAY_MS)}${'0'.repeat(16)}`;
  const count = `/api/webhooks/${busyUid}/deliveries/count?`;
  return [
    ['first page + exact total', deliveries],
    ['a word in 1 payload, the UI: its page', `${deliveries}&q=order_${rareOrder}&total=later`],
    ['a word in 1 payload, the UI: its count', `${count}q=order_${rareOrder}`],
    ['q = a word in 1 payload', `${deliveries}&q=order_${rareOrder}`],
    ['Tromsø, the UI: its page (total=later)', `${deliveries}&q=Troms%C3%B8&total=later`],
    ['Tromsø, the UI: its count', `${count}q=Troms%C3%B8`],
    ['q = a word in many payloads (Tromsø)', `${deliveries}&q=Troms%C3%B8`],
    // ASCII: on PostgreSQL its first count scans the payloads rather than fold each (dialect.ts).
    ['an ASCII word in many payloads (sprocket), the UI: its count', `${count}q=sprocket`],
    ['an ID prefix, the UI: its page', `${deliveries}&q=${deepBefore.slice(0, 12)}&total=later`],
    ['an ID prefix, the UI: its count', `${count}q=${deepBefore.slice(0, 12)}`],
    ['q = a delivery ID prefix', `${deliveries}&q=${deepBefore.slice(0, 12)}`],
    ['labels = Rejected (auth)', `${deliveries}&labels=Rejected%20(auth)`],
    ['labels = Accepted,Duplicate', `${deliveries}&labels=Accepted,Duplicate`],
    ['time range: the last 24 h', `${deliveries}&from=${day}`],
    [
      'time range: a day 3 days ago',
      `${deliveries}&from=${day - 3 * DAY_MS}&to=${day - 2 * DAY_MS}`,
    ],
    ['event type = order.paid', `${deliveries}&eventType=order.paid`],
    [
      'q + label + 24 h, the UI: its page',
      `${deliveries}&q=sprocket&labels=Accepted&from=${day}&total=later`,
    ],
    ['q + label + 24 h, the UI: its count', `${count}q=sprocket&labels=Accepted&from=${day}`],
    ['q + label + last 24 h', `${deliveries}&q=sprocket&labels=Accepted&from=${day}`],
    ['a deep page (4 days back)', `${deliveries}&before=${deepBefore}`],
    ['activity (24 h, every webhook)', '/api/activity'],
    ['volume 24 h', `/api/webhooks/${busyUid}/volume?range=24h`],
    ['volume 7 d', `/api/webhooks/${busyUid}/volume?range=7d`],
    ['refusals', '/api/refusals'],
    ['alarms', '/api/alarms'],
    ['webhooks', '/api/webhooks?factory=default'],
    ['fields (200 payloads)', `/api/webhooks/${busyUid}/fields`],
    ['/metrics', '/metrics'],
  ];
}

/** A read's name, its first time, the median of its three, and the total it answered. */
export type TimedRead = [name: string, firstMs: number, medianMs: number, total: string];

/** Each read three times, in order. */
export async function timeReads(info: ScaleRelayInfo, reads: Read[]): Promise<TimedRead[]> {
  const out: TimedRead[] = [];
  for (const [name, path] of reads) {
    const times: number[] = [];
    let note = '';
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      const response = await fetch(`${info.adminUrl}${path}`, {
        headers: { authorization: `Bearer ${info.adminToken}` },
      });
      const text = await response.text();
      times.push(performance.now() - started);
      if (response.status !== 200)
        throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
      if (text.startsWith('{')) {
        const total = (JSON.parse(text) as { total?: number }).total;
        if (total !== undefined) note = total.toLocaleString('en-US');
      }
    }
    out.push([name, times[0]!, [...times].sort((a, b) => a - b)[1]!, note]);
  }
  return out;
}

/**
 * `read()` while the scale suite's paced sender posts (5 a second) to the relay: a read that
 * holds the relay's event loop holds that sender's answers too.
 */
export async function besideReads<T>(
  info: ScaleRelayInfo,
  read: () => Promise<T>,
): Promise<{ reads: T; sender: SenderResult }> {
  const stop = new AbortController();
  const sending = pacedSender({
    url: info.senderUrl,
    secret: info.senderSecret,
    perSecond: 5,
    seconds: 3_600,
    stop: stop.signal,
  });
  try {
    const reads = await read();
    stop.abort();
    return { reads, sender: await sending };
  } finally {
    stop.abort();
  }
}

/** How many distinct first counts the storm asks for at once: three times a relay's pool. */
export const STORM_COUNTS = 30;

/**
 * A storm of first counts, all asked at once: a common text over `STORM_COUNTS` time ranges
 * (from 4 h to 5 days back), each a search no kept total answers, as an operator trying filters
 * or an API client with a `view` token can ask. Answers each one's time, slowest last.
 */
export async function countStorm(
  info: ScaleRelayInfo,
  busyUid: string,
): Promise<{ counts: number[]; pages: number[] }> {
  const timed = async (path: string): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${info.adminUrl}${path}`, {
      headers: { authorization: `Bearer ${info.adminToken}` },
    });
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
    return performance.now() - started;
  };
  const now = Date.now();
  const counts = Promise.all(
    Array.from({ length: STORM_COUNTS }, (_, i) =>
      timed(
        `/api/webhooks/${busyUid}/deliveries/count?q=Troms%C3%B8&from=${now - (i + 1) * 4 * 3_600_000}`,
      ),
    ),
  );
  // The UI's first page, read while the counts run: what an operator waits for meanwhile.
  const pages: number[] = [];
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    pages.push(await timed(`/api/webhooks/${busyUid}/deliveries?limit=200`));
  }
  return { counts: (await counts).sort((a, b) => a - b), pages };
}

/** The sender and the UI's first page beside the storm of counts; the sender on the empty store. */
export const stormRow = (
  storm: { counts: number[]; pages: number[] },
  sender: SenderResult,
  quiet: SenderResult,
): string => {
  const { counts, pages } = storm;
  return (
    `Beside ${counts.length} first counts asked at once (each answered in ` +
    `${ms(counts[0]!)}–${ms(counts[counts.length - 1]!)}): the sender (${sender.answered} answered) ` +
    `p50 ${ms(sender.p50Ms)}, p99 ${ms(sender.p99Ms)} (${(sender.p99Ms / Math.max(quiet.p99Ms, 0.001)).toFixed(2)}× the empty store's), ` +
    `slowest ${sender.slowest
      .slice(0, 3)
      .map((s) => ms(s.ms))
      .join(', ')}; the first page + exact total, read meanwhile: ${pages.map(ms).join(', ')}`
  );
};

/** The sender beside the reads, and the relay's event loop meanwhile. */
export const besideRow = (
  sender: SenderResult,
  loop: { loopMaxMs: number; loopP99Ms: number },
): string =>
  `\nThe sender beside the reads (${sender.answered} answered): p99 ${ms(sender.p99Ms)}, max ${ms(sender.maxMs)}; ` +
  `the event loop's longest delay ${ms(loop.loopMaxMs)} (p99 ${ms(loop.loopP99Ms)})`;

export function printReads(timed: TimedRead[]): void {
  console.log('| read (busy webhook) | total | first | median of 3 | target |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, first, median, note] of timed)
    console.log(`| ${name} | ${note} | ${ms(first)} | ${ms(median)} | < 300 ms |`);
}

/** An IPC question to a scale relay (scale-relay.ts), answered by its next non-log message. */
export function ask<T>(relay: ServerProcess<ScaleRelayInfo>, message: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (answer: Record<string, unknown>): void => {
      if (answer.log !== undefined) return;
      relay.child.off('message', on);
      resolve(answer as T);
    };
    relay.child.on('message', on);
    relay.child.send(message);
  });
}

export const ms = (value: number): string => `${value.toFixed(0)} ms`;

export const senderRow = (name: string, r: SenderResult): string =>
  `| ${name} | ${r.sent} | ${r.answered} | ${r.failed} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${ms(r.maxMs)} |`;

/** The load average now, as `uptime` says it: the machine is shared. */
export async function loadAverage(): Promise<string> {
  const { loadavg } = await import('node:os');
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(', ');
}
