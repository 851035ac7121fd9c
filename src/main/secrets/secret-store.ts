/** Where secret values live. SQLite never holds a value; only this does. */
export interface SecretStore {
  readonly backend: 'keychain' | 'file' | 'postgres';
  /** Human description for the status line and start-up output, e.g. a file path. */
  readonly description: string;
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<void>;
  /**
   * A key of its own for `purpose`, derived from the store's master key where it has one (the
   * encrypted file, PostgreSQL: every replica derives the same). A keychain has none.
   */
  derivedKey?(purpose: string): Buffer;
}

/** Keychain account naming of PRODUCT.md §5: `<factory>/<name>` under service `hookport`. */
export const secretAccount = (factoryId: string, name: string): string => `${factoryId}/${name}`;
