import { getHeapSpaceStatistics } from 'node:v8';
import { readFileSync } from 'node:fs';
import { startCore } from '../src/main/core.js';
import { silentLogger } from '../src/main/log.js';
const core = await startCore({
  dataDir: process.argv[2]!,
  ingress: { host: '127.0.0.1', port: 0 },
  admin: { port: 0 },
  adminTokenFromEnv: undefined,
  masterKeyFromEnv: undefined,
  log: silentLogger,
  secretBackend: 'file',
  limits: { deliveriesPerMinute: 1e9 },
});
const created = await core.service['webhooks.create'](
  { factory: 'default', name: 'bench', authMode: 'token' },
  { role: 'manage' },
);
process.stdout.write(
  JSON.stringify({ webhookUrl: created.ingressUrl, secret: created.secret }) + '\n',
);
const mb = (n: number) => (n / 1048576).toFixed(1);
process.on('message', () => {
  const m = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .filter((l) => /RssAnon|RssFile/.test(l))
    .join(' ')
    .replace(/\s+/g, ' ');
  console.error(
    'rss',
    mb(m.rss),
    status,
    'heapTotal',
    mb(m.heapTotal),
    'used',
    mb(m.heapUsed),
    'external',
    mb(m.external),
    'ab',
    mb(m.arrayBuffers),
    getHeapSpaceStatistics()
      .filter((s) => s.space_size > 1e6)
      .map((s) => `${s.space_name}=${mb(s.space_size)}`)
      .join(' '),
  );
  process.send?.({ rss: m.rss });
});
process.once('SIGTERM', () => void core.stop().then(() => process.exit(0)));
