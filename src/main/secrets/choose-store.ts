import { EncryptedFileSecretStore, loadMasterKey } from './file-store.js';
import type { SecretStore } from './secret-store.js';

/** The secret backend for this machine. */
export function chooseSecretStore(
  dataDir: string,
  masterKeyFromEnv: string | undefined,
): Promise<SecretStore> {
  return Promise.resolve(
    new EncryptedFileSecretStore(dataDir, loadMasterKey(dataDir, masterKeyFromEnv)),
  );
}
