import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring';
import type { SecretStore } from './secret-store.js';

/** PRODUCT.md §5: every value is a keychain item of service `hookport`, account `<factory>/<name>`. */
export const KEYCHAIN_SERVICE = 'hookport';

// On Linux the library would otherwise fall back to the kernel keyring, which forgets everything
// at reboot: secrets must be in a real Secret Service (gnome-keyring, KWallet, KeePassXC) or not here.
const ENTRY_OPTIONS: EntryOptions | undefined =
  process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'macOS Keychain',
  win32: 'Windows Credential Manager',
  linux: 'Secret Service keyring',
};

/**
 * An operation still waiting for a libuv thread after this is given up. The signal cannot stop one
 * already talking to the keychain: start-up relies on probeKeychain's time limit instead.
 */
const TIMEOUT_MS = 5_000;

/**
 * Secret values in the operating system's keychain through @napi-rs/keyring (the maintained,
 * prebuilt successor of the archived keytar). Items never carry a collection target: on Linux a
 * target names a collection, and creating one needs a user prompt.
 */
export class KeychainSecretStore implements SecretStore {
  readonly backend = 'keychain' as const;
  readonly description = `OS keychain (${PLATFORM_NAMES[process.platform] ?? process.platform}, service "${KEYCHAIN_SERVICE}")`;

  get(account: string): Promise<string | null> {
    return entry(account).getPassword(AbortSignal.timeout(TIMEOUT_MS));
  }

  async set(account: string, value: string): Promise<void> {
    await entry(account).setPassword(value, AbortSignal.timeout(TIMEOUT_MS));
  }

  async delete(account: string): Promise<void> {
    await entry(account).deletePassword(AbortSignal.timeout(TIMEOUT_MS));
  }
}

function entry(account: string): AsyncEntry {
  return new AsyncEntry(KEYCHAIN_SERVICE, account, ENTRY_OPTIONS);
}

/** A keychain that has not finished the start-up round trip by then is treated as absent. */
export const PROBE_TIMEOUT_MS = 5_000;

// The round trip runs in a child process because @napi-rs/keyring opens its D-Bus connection
// synchronously, on the calling thread, with no timeout: a hung session bus would freeze the
// relay's event loop for good, and a worker thread stuck in native code keeps the process from
// exiting. A child can simply be killed. Plain CommonJS, so `node -e` (or Electron with
// ELECTRON_RUN_AS_NODE) runs it as is; argv: library path, account, entry options as JSON.
const PROBE_SCRIPT = `
const [, library, account, options] = process.argv;
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

/**
 * Whether a keychain answers here: a write, read and delete of a throwaway item, within
 * `timeoutMs`. Returns the reason when it does not (no D-Bus session, a hung bus, a locked keyring
 * that would need a prompt, …).
 */
export function probeKeychain(
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const library = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  const account = `probe/${randomBytes(8).toString('hex')}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-e', PROBE_SCRIPT, library, account, JSON.stringify(ENTRY_OPTIONS ?? null)],
      {
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (stdout === 'ok') resolve({ ok: true });
        else if (error?.killed)
          resolve({ ok: false, reason: `no answer within ${timeoutMs / 1000} s (a hung D-Bus?)` });
        else
          resolve({
            ok: false,
            reason: stdout || stderr.trim() || (error?.message ?? 'no answer'),
          });
      },
    );
  });
}
