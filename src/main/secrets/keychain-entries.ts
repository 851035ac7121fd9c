import type { EntryOptions } from '@napi-rs/keyring';

/** PRODUCT.md §5: every value is a keychain item of service `hookport`, account `<factory>/<name>`. */
export const KEYCHAIN_SERVICE = 'hookport';

// On Linux the library would otherwise fall back to the kernel keyring, which forgets everything
// at reboot: secrets must be in a real Secret Service (gnome-keyring, KWallet, KeePassXC) or not here.
export const ENTRY_OPTIONS: EntryOptions | undefined =
  process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;
