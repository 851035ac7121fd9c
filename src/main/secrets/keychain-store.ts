import { randomBytes } from 'node:crypto';
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

/** A keychain that takes longer than this to answer is treated as absent. */
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

/**
 * Whether a keychain answers here: a write, read and delete of a throwaway item. Returns the
 * reason when it does not (no D-Bus session, a locked keyring that would need a prompt, …).
 */
export async function probeKeychain(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const account = `probe/${randomBytes(8).toString('hex')}`;
  const store = new KeychainSecretStore();
  try {
    await store.set(account, 'probe');
    const read = await store.get(account);
    await store.delete(account);
    return read === 'probe'
      ? { ok: true }
      : { ok: false, reason: 'the keychain did not return what was written' };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
