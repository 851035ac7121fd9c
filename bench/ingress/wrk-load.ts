/**
 * The outside load generator: `wrk` (a C program, `apt-get install -y wrk`), driven by a Lua
 * script written per run, with the same requests as load-generator.ts (autocannon): POST, the
 * same body, the path's headers and a unique `X-Service-Delivery-Id` per request. A Node load
 * generator on the same two cores saturates before a fast server does (bare node:http answers
 * 18–23k req/s under autocannon and 35k+ under wrk), so wrk's rows say more about the server.
 * wrk's own statuses and latencies come back as a LoadResult, as autocannon's do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventBody } from './event-body.js';
import { jsonBody, type LoadOptions, type LoadResult } from './load-generator.js';

/** wrk threads: one per core of the two this machine has (each drives its share of connections). */
const THREADS = 2;

/** Whether `wrk` is on the PATH; the suite prints only autocannon's rows without it. */
export function wrkInstalled(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const luaString = (text: string): string => JSON.stringify(text);

/**
 * One request function per thread: a table of headers reused, only the ID changing. `response`
 * counts statuses (wrk itself only counts "non-2xx"); `done` sums them over the threads and
 * prints one JSON line. Summed in Lua, not listed per thread: JSON.parse keeps the last of two
 * equal keys, which halved the answered count and doubled every CPU-per-request figure.
 */
function script(bodyFile: string, options: LoadOptions): string {
  const headers = { 'content-type': 'application/json', ...options.headers };
  const fields = Object.entries(headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
    .join(', ');
  return `
local file = assert(io.open(${luaString(bodyFile)}, "rb"))
local body = file:read("*a")
file:close()
local threads = {}
local made = 0
function setup(thread)
  made = made + 1
  thread:set("tid", made)
  table.insert(threads, thread)
end
local headers = { ${fields} }
local count = 0
statuses = {}
function request()
  count = count + 1
  headers["x-service-delivery-id"] = ${luaString(options.idPrefix)} .. "-" .. tid .. "-" .. count
  return wrk.format("POST", nil, headers, body)
end
function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end
function done(summary, latency)
  local sums = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      sums[status] = (sums[status] or 0) + n
    end
  end
  local counts = {}
  for status, n in pairs(sums) do
    counts[#counts + 1] = string.format('"%d":%d', status, n)
  end
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format('{"requests":%d,"duration":%d,"p50":%d,"p99":%d,"errors":%d,"statuses":{%s}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), errors,
    table.concat(counts, ",")))
end
`;
}

interface WrkSummary {
  requests: number;
  /** µs */
  duration: number;
  /** µs */
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
}

/** Runs wrk against `options.url` for `options.seconds`; the same result shape as autocannon's. */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  if (Array.isArray(options.url)) throw new Error('wrk rows take one URL');
  const dir = mkdtempSync(join(tmpdir(), 'hookport-wrk-'));
  try {
    const bodyFile = join(dir, 'body.json');
    const body =
      options.body === 'event' ? eventBody(options.bodyBytes) : jsonBody(options.bodyBytes);
    writeFileSync(bodyFile, body);
    const scriptFile = join(dir, 'post.lua');
    writeFileSync(scriptFile, script(bodyFile, options));
    const args = [
      `-t${THREADS}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--timeout',
      '10s',
      '-s',
      scriptFile,
      options.url,
    ];
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const line = output.split('\n').find((l) => l.startsWith('{"requests"'));
    if (code !== 0 || !line) throw new Error(`wrk failed (${code}): ${output}`);
    const summary = JSON.parse(line) as WrkSummary;
    // Every response counted once: the CPU per request divides by this count.
    const counted = Object.values(summary.statuses).reduce((sum, n) => sum + n, 0);
    if (counted !== summary.requests)
      throw new Error(`wrk counted ${counted} statuses for ${summary.requests} responses`);
    // wrk keeps its non-2xx count apart from errors; counted statuses say which they were.
    return {
      requestsPerSecond: summary.requests / (summary.duration / 1e6),
      p50: Math.round(summary.p50 / 100) / 10,
      p99: Math.round(summary.p99 / 100) / 10,
      statuses: summary.statuses,
      errors: summary.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
