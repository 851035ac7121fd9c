import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { RelayStatus } from '../../../src/shared/contract/relay.js';
import { freeLoopbackPort } from '../../../src/main/tunnels/free-port.js';
import { sampleCommand } from '../../../src/renderer/pages/webhooks/sample-command.js';
import { tempDir } from '../../support/relay.js';
import { waitFor } from '../../support/wait.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

/** The last line of the first `sh` block under README's `heading`: the command a newcomer runs. */
function readmeCommand(heading: string): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const block = /```sh\n([^`]+)\n```/.exec(section);
  if (!block) throw new Error(`README has no command under ${heading}`);
  return block[1]!
    .split('\n')
    .at(-1)!
    .replace(/\s+#.*$/, '');
}

/** One small suite: the whole of it would run this test again. */
const ONE_SUITE = 'test/unit/shared/curl-command.test.ts';

/**
 * Whether this very run is README's test command on a clean checkout of this commit without
 * Electron, as on CI (`.ci/run` is `npm ci`, then `npm test`): its lint, type check and build
 * have then passed on exactly the files the clone holds, with the same Electron types unpacked
 * from npm's cache, before Vitest started. The clone's `npm test` would pay for all of them a
 * second time; it still runs wherever the run proves less (a changed tree, Electron installed,
 * Vitest started on its own).
 */
function thisRunIsReadmeTestOnThisCommit(): boolean {
  const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    scripts: { test: string };
  };
  if (process.env.npm_lifecycle_event !== 'test') return false;
  if (!process.env.npm_lifecycle_script?.startsWith(scripts.test)) return false;
  if (existsSync(join(REPO, 'node_modules/electron/package.json'))) return false;
  const status = spawnSync('git', ['status', '--porcelain'], { cwd: REPO, encoding: 'utf8' });
  return status.status === 0 && status.stdout === '';
}

/**
 * Stands in for better-sqlite3's release downloads on GitHub (a boundary we do not own; the URL
 * shape is prebuild-install's: `{host}/v{version}/better-sqlite3-v{version}-node-v{abi}-{platform}-{arch}.tar.gz`).
 * It serves the driver this checkout compiled, so the clean clone's install takes the prebuilt
 * path instead of compiling for two minutes; CI's own `npm ci` still compiles from source.
 */
async function serveSqliteDriver(dir: string): Promise<{ host: string; server: Server }> {
  const { version } = JSON.parse(
    readFileSync(join(REPO, 'node_modules/better-sqlite3/package.json'), 'utf8'),
  ) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const tarball = join(dir, name);
  const packed = spawnSync(
    'tar',
    [
      'czf',
      tarball,
      '-C',
      join(REPO, 'node_modules/better-sqlite3'),
      'build/Release/better_sqlite3.node',
    ],
    { encoding: 'utf8' },
  );
  if (packed.status !== 0) throw new Error(`tar failed: ${packed.stderr}`);
  const server = createServer((request, response) => {
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(tarball));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { host: `http://127.0.0.1:${port}`, server };
}

/** Runs `command` in a shell without blocking this process (the driver's stand-in answers meanwhile). */
function sh(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A newcomer's first commands on a machine that cannot reach Electron's binary download (its
 * mirror is a closed 127.0.0.1 port): a clean clone, README's quick start as written (npm leaves
 * Electron out), README's test command as written (its lint and type check still see Electron's
 * types), a relay that answers /healthz, and the UI's sample `hookport send` line pasted into a
 * shell in another directory. npm installs from its cache only and the SQLite driver comes from
 * a local stand-in of its release downloads, so nothing here leaves 127.0.0.1; CI's own `npm ci`
 * fills that cache. This is the suite's slowest test (minutes: the clone's lint, type check and
 * build, which a run that is itself README's `npm test` on this commit does not pay twice).
 */
describe("README's quick start in a clean clone, without GitHub's downloads", () => {
  const work = tempDir('hookport-first-run-');
  let relay: ChildProcess | null = null;
  let driverDownloads: Server | null = null;
  afterAll(async () => {
    driverDownloads?.close();
    if (relay && relay.exitCode === null && relay.signalCode === null) {
      process.kill(-relay.pid!, 'SIGKILL');
      await new Promise((resolve) => relay!.once('exit', resolve));
    }
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'installs, starts a relay that answers, and the sample hookport send delivers',
    { timeout: 900_000 },
    async () => {
      const clone = join(work, 'hookport');
      const cloned = spawnSync('git', ['clone', '--quiet', REPO, clone], { encoding: 'utf8' });
      expect(cloned.status, cloned.stderr).toBe(0);
      const electronCache = join(work, 'electron-cache');
      mkdirSync(electronCache);
      const driver = await serveSqliteDriver(work);
      driverDownloads = driver.server;
      const env: NodeJS.ProcessEnv = {
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([name]) => !name.startsWith('HOOKPORT_') && name !== 'ELECTRON_SKIP_BINARY_DOWNLOAD',
          ),
        ),
        ELECTRON_MIRROR: `http://127.0.0.1:${await freeLoopbackPort()}/`,
        electron_config_cache: electronCache,
        npm_config_offline: 'true',
        npm_config_better_sqlite3_binary_host: driver.host,
        HOOKPORT_DATA_DIR: join(work, 'data'),
        // Not the developer's keychain.
        HOOKPORT_SECRET_BACKEND: 'file',
      };

      // README's command, as written; only the relay's ports are free ones, not 8787/8788.
      const [install, start, ...rest] = readmeCommand('## Quick start').split(' && ');
      expect([install, start, rest]).toEqual(['npm ci', 'npm start', []]);
      const installed = await sh(install!, clone, env);
      expect(installed.status, installed.stdout + installed.stderr).toBe(0);
      expect(installed.stdout).toContain('Hookport: Electron did not install');
      // The driver came from the (stand-in) download: nothing was compiled.
      expect(existsSync(join(clone, 'node_modules/better-sqlite3/build/Release/obj.target'))).toBe(
        false,
      );

      // README's test command as written (lint, type check, build, then Vitest), on one suite,
      // unless this run is that command on this very commit (then it has just passed).
      const testCommand = readmeCommand('## Tests');
      expect(testCommand).toBe('npm test');
      if (!thisRunIsReadmeTestOnThisCommit()) {
        const tested = await sh(`${testCommand} -- ${ONE_SUITE}`, clone, env);
        expect(tested.status, tested.stdout + tested.stderr).toBe(0);
        const plain = tested.stdout.replace(
          new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'),
          '',
        );
        expect(plain).toMatch(/Tests\s+\d+ passed/);
      }

      let output = '';
      // A process group of its own (npm, its shell, the relay), stopped as a terminal's Ctrl-C would.
      relay = spawn('sh', ['-c', `exec ${start!} -- --ingress-port 0 --admin-port 0`], {
        cwd: clone,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      relay.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      relay.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const ingress = await waitFor(
        () => /Ingress\s+(http:\/\/\S+)/.exec(output)?.[1],
        'the start banner',
        {
          timeoutMs: 120_000,
          intervalMs: 200,
        },
      );
      const admin = /Admin\s+(http:\/\/\S+)/.exec(output)![1]!;
      const health = await fetch(`${ingress}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true, store: 'sqlite' });

      const token = readFileSync(join(work, 'data', 'admin-token'), 'utf8').trim();
      const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const response = await fetch(`${admin}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await response.json()) as T;
      };
      const created = await api<{
        webhook: { authMode: 'signature'; signatureScheme: 'github' };
        ingressUrl: string;
        secret: string;
      }>('POST', '/api/webhooks', {
        name: 'gh',
        authMode: 'signature',
        signatureScheme: 'github',
        secret: 'my-github-secret',
      });
      const { cliCommand } = await api<RelayStatus>('GET', '/api/status');
      const sample = sampleCommand(created.webhook, created.ingressUrl, created.secret, cliCommand);

      // Pasted into a shell elsewhere, with the PATH a newcomer has.
      const elsewhere = join(work, 'elsewhere');
      mkdirSync(elsewhere);
      const sent = spawnSync('bash', ['-c', sample], { cwd: elsewhere, env, encoding: 'utf8' });
      expect(sent.stderr).toBe('');
      expect(sent.stdout).toMatch(/^202 dlv_[0-9A-Z]{26}\n$/);
      expect(sent.status).toBe(0);

      process.kill(-relay.pid!, 'SIGINT');
      await new Promise((resolve) => relay!.once('exit', resolve));
      expect(output).toContain('Received SIGINT: finishing in-flight deliveries');
    },
  );
});
