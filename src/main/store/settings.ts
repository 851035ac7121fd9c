/** A small key → JSON value table for relay-wide settings. */
export interface SettingsRepository {
  /** The stored value, or undefined when none is. */
  get(key: string): Promise<unknown>;
  /** undefined or null removes the key. */
  set(key: string, value: unknown): Promise<void>;
}
