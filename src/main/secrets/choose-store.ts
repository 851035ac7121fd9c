import { EncryptedFileSecretStore, loadMasterKey } from './file-store.js';
import { probeKeychain, type ProbeRunner } from './keychain-probe.js';
import type { SecretStore } from './secret-store.js';

export type SecretBackend = SecretStore['backend'];

export interface SecretBackendChoice {
  dataDir: string;
  masterKeyFromEnv: string | undefined;
  /** HOOKPORT_SECRET_BACKEND: forces a backend. */
  forced: string | undefined;
  /** The backend this data dir used before, if any: its secrets live there. */
  remembered: SecretBackend | undefined;
  /** How the keychain probe's child runs (Electron's utility process in the desktop app). */
  probeRunner?: ProbeRunner;
}

/**
 * The keychain when one answers, else the encrypted file. Once a data dir has secrets in one
 * backend it stays there: switching silently would make every existing secret "missing".
 */
export async function chooseSecretStore(choice: SecretBackendChoice): Promise<SecretStore> {
  const file = (): SecretStore =>
    new EncryptedFileSecretStore(
      choice.dataDir,
      loadMasterKey(choice.dataDir, choice.masterKeyFromEnv),
    );
  const wanted = choice.forced || choice.remembered;
  if (wanted !== undefined && wanted !== 'keychain' && wanted !== 'file') {
    throw new Error(`HOOKPORT_SECRET_BACKEND must be "keychain" or "file", not "${wanted}".`);
  }
  if (wanted === 'file') return file();
  const probe = await probeKeychain(undefined, choice.probeRunner);
  // Loaded only when used: the native keychain library is a megabyte of the relay's memory.
  if (probe.ok) return new (await import('./keychain-store.js')).KeychainSecretStore();
  if (wanted === 'keychain') {
    const why = choice.forced
      ? 'HOOKPORT_SECRET_BACKEND=keychain'
      : 'This data dir keeps its secrets in the OS keychain';
    throw new Error(
      `${why}, but no keychain answered (${probe.reason}). Unlock or start the keychain (on Linux: a Secret Service such as gnome-keyring) and try again.`,
    );
  }
  return file();
}
