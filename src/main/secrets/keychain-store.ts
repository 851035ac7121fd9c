import { AsyncEntry } from '@napi-rs/keyring';
import { ENTRY_OPTIONS, KEYCHAIN_SERVICE } from './keychain-entries.js';
import type { SecretStore } from './secret-store.js';

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
