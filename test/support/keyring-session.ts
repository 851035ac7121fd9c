import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeKeychain } from '../../src/main/secrets/keychain-probe.js';
import { waitFor } from './wait.js';

const INSTALL_HINT =
  'Install them with: sudo apt-get install -y gnome-keyring dbus libsecret-tools';

export interface KeyringSession {
  /** Environment for child processes (a relay, secret-tool) that should use this keyring. */
  env: NodeJS.ProcessEnv;
  /** `secret-tool` against this keyring, to check from outside what the relay stored. */
  secretTool(args: string[], input?: string): { status: number | null; stdout: string };
  /** Deletes every `hookport` item, so the next test starts from an empty keychain. */
  clear(): void;
  stop(): Promise<void>;
}

function requireCommand(command: string): void {
  if (spawnSync('which', [command]).status !== 0) {
    throw new Error(`The keychain tests need ${command}, which is not installed. ${INSTALL_HINT}`);
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/**
 * A private Secret Service for tests: its own D-Bus session bus and gnome-keyring, unlocked with a
 * test password, in a temporary HOME, so a developer's real keyring is never touched. Sets this
 * process's DBUS_SESSION_BUS_ADDRESS so the relay under test (in this process) finds it.
 */
export async function startKeyringSession(): Promise<KeyringSession> {
  for (const command of ['dbus-daemon', 'gnome-keyring-daemon', 'secret-tool'])
    requireCommand(command);
  const home = mkdtempSync(join(tmpdir(), 'hookport-keyring-'));
  const runtime = join(home, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
  };

  // No service activation on this bus: otherwise an early request would start a second, locked
  // gnome-keyring before ours has registered, and ours would give way to it.
  const busConfig = join(home, 'bus.conf');
  writeFileSync(
    busConfig,
    readFileSync('/usr/share/dbus-1/session.conf', 'utf8')
      .replace(/<standard_session_servicedirs\s*\/>/, '')
      .replace(/<servicedir>[^<]*<\/servicedir>/g, ''),
  );
  const bus = spawn(
    'dbus-daemon',
    [`--config-file=${busConfig}`, '--nofork', '--print-address=1'],
    {
      env,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const [first] = (await once(bus.stdout, 'data')) as [Buffer];
  env.DBUS_SESSION_BUS_ADDRESS = first.toString().split('\n')[0]!.trim();

  const keyring = spawn(
    'gnome-keyring-daemon',
    ['--unlock', '--components=secrets', '--foreground'],
    {
      env,
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  keyring.stdin.end('hookport-test-password');

  const previousAddress = process.env.DBUS_SESSION_BUS_ADDRESS;
  process.env.DBUS_SESSION_BUS_ADDRESS = env.DBUS_SESSION_BUS_ADDRESS;
  const stop = async (): Promise<void> => {
    if (previousAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = previousAddress;
    await kill(keyring);
    await kill(bus);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await probeKeychain()).ok, 'the private gnome-keyring to answer', {
      timeoutMs: 15_000,
      intervalMs: 100,
    });
  } catch (error) {
    await stop();
    throw new Error(
      `The test keyring did not start (${(error as Error).message}). ${INSTALL_HINT}`,
      {
        cause: error,
      },
    );
  }

  const secretTool: KeyringSession['secretTool'] = (args, input) => {
    const run = spawnSync('secret-tool', args, { env, input, encoding: 'utf8', timeout: 10_000 });
    return { status: run.status, stdout: run.stdout };
  };
  return {
    env,
    secretTool,
    clear: () => {
      secretTool(['clear', 'service', 'hookport']);
    },
    stop,
  };
}
