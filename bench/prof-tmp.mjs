import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const [script, bytes, seconds, mode, ...flags] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), 'wt15-prof-'));
const child = spawn(process.execPath, [...flags, script, dir, mode === '404' ? 'raised' : mode], {
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  cwd: '/work/wt-15',
});
let buf = '';
const info = await new Promise((res) =>
  child.stdout.on('data', (c) => {
    buf += c;
    const l = buf.split('\n').find((x) => x.startsWith('{'));
    if (l) {
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      res(JSON.parse(l));
    }
  }),
);
const url = mode === '404' ? info.unknownWebhookUrl : (info.webhookUrl ?? info.url);
if (mode === 'default')
  for (let i = 0; i < 61; i++)
    await fetch(info.webhookUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.secret}`, 'x-service-delivery-id': 'pre' + i },
      body: '{}',
    });
const headers = info.secret ? { authorization: `Bearer ${info.secret}` } : {};
const rss = () =>
  new Promise((r) => {
    child.once('message', (m) => r(Math.round(m.rss / 1048576)));
    child.send('rss');
  });
console.log('idle rss', await rss());
{
  const { execSync } = await import('node:child_process');
  console.log(
    'IDLE REGIONS',
    execSync(
      `awk '/^[0-9a-f]/{name=$6; r=$1} /^Rss/{ if ($2>1500) print $2" kB "r" "name }' /proc/${child.pid}/smaps | sort -n | tail -6`,
    )
      .toString()
      .replace(/\n/g, ' | '),
  );
}
const { readFileSync: rf } = await import('node:fs');
const cpu = () => {
  const f = rf(`/proc/${child.pid}/stat`, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(x[11]) + Number(x[12])) * 10;
};
const cpu0 = cpu();
const gen = spawn(
  process.execPath,
  [
    'out/bench/load-generator.mjs',
    JSON.stringify({
      url,
      bodyBytes: Number(bytes),
      seconds: Number(seconds),
      connections: 50,
      headers,
      idPrefix: 'p' + Date.now(),
    }),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], cwd: '/work/wt-15' },
);
let out = '';
gen.stdout.on('data', (c) => (out += c));
await new Promise((r) => gen.once('exit', r));
const r = JSON.parse(out.trim().split('\n').at(-1));
const total = Object.values(r.statuses).reduce((a, b) => a + b, 0);
console.log(
  'rps',
  Math.round(r.requestsPerSecond),
  'p99',
  r.p99,
  JSON.stringify(r.statuses),
  'cpu ms/1k req',
  (((cpu() - cpu0) / total) * 1000).toFixed(0),
);
console.log('loaded rss', await rss());
const { execSync } = await import('node:child_process');
console.log(
  execSync(
    `awk '/^[0-9a-f]/{name=$6; r=$1} /^Rss/{ if ($2>1500) print $2" kB "r" "name }' /proc/${child.pid}/smaps | sort -n | tail -14`,
  ).toString(),
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
