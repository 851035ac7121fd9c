import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { ENTRY_OPTIONS, KEYCHAIN_SERVICE } from './keychain-entries.js';

/** A keychain that has not finished the start-up round trip by then is treated as absent. */
export const PROBE_TIMEOUT_MS = 5_000;

// The round trip runs in a child process because @napi-rs/keyring opens its D-Bus connection
// synchronously, on the calling thread, with no timeout: a hung session bus would freeze the
// relay's event loop for good, and a worker thread stuck in native code keeps the process from
// exiting. A child can simply be killed. Plain CommonJS that reads its last three arguments
// (library path, account, entry options as JSON), so `node -e` and Electron's utility process
// run it alike.
export const PROBE_SCRIPT = `
const [library, account, options] = process.argv.slice(-3);
const { Entry } = require(library);
try {
  const entry = new Entry(${JSON.stringify(KEYCHAIN_SERVICE)}, account, JSON.parse(options) ?? undefined);
  entry.setPassword('probe');
  const read = entry.getPassword();
  entry.deletePassword();
  process.stdout.write(read === 'probe' ? 'ok' : 'the keychain did not return what was written');
} catch (error) {
  process.stdout.write(error instanceof Error ? error.message : String(error));
}`;

export interface ProbeOutcome {
  stdout: string;
  stderr: string;
  /** Killed for taking longer than the time limit. */
  timedOut: boolean;
  error?: string;
}

/** Runs the probe script in a process that can be killed; the desktop app uses Electron's own. */
export type ProbeRunner = (
  script: string,
  args: string[],
  timeoutMs: number,
) => Promise<ProbeOutcome>;

/** Node's own binary (or Electron acting as Node, where that fuse is on) with `-e`. */
export const nodeProbeRunner: ProbeRunner = (script, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', script, ...args],
      {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
      (error, stdout, stderr) =>
        resolve({ stdout, stderr, timedOut: error?.killed === true, error: error?.message }),
    );
  });

/**
 * Whether a keychain answers here: a write, read and delete of a throwaway item, within
 * `timeoutMs`. Returns the reason when it does not (no D-Bus session, a hung bus, a locked keyring
 * that would need a prompt, …).
 */
export async function probeKeychain(
  timeoutMs = PROBE_TIMEOUT_MS,
  runner: ProbeRunner = nodeProbeRunner,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const library = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  const account = `probe/${randomBytes(8).toString('hex')}`;
  const outcome = await runner(
    PROBE_SCRIPT,
    [library, account, JSON.stringify(ENTRY_OPTIONS ?? null)],
    timeoutMs,
  );
  if (outcome.stdout === 'ok') return { ok: true };
  if (outcome.timedOut)
    return { ok: false, reason: `no answer within ${timeoutMs / 1000} s (a hung D-Bus?)` };
  return {
    ok: false,
    reason: outcome.stdout || outcome.stderr.trim() || (outcome.error ?? 'no answer'),
  };
}
