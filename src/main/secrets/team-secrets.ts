import { createHash } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { SecretRecord, SecretsRepository } from '../store/secrets-repo.js';
import type { Async } from '../store/store.js';
import { secretAccount, type SecretStore } from './secret-store.js';

/** 8 hex digits of SHA-256: enough to tell two values apart on screen, far too little to recover one. */
export const fingerprintOf = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 8);

/**
 * Named team secrets: names and fingerprints in SQLite, values in the secret store, and every
 * value cached in memory so the ingress never waits on a keychain.
 */
export class TeamSecrets {
  private readonly cache = new Map<string, string>();

  constructor(
    private readonly repo: Async<SecretsRepository>,
    private readonly store: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  get backend(): SecretStore['backend'] {
    return this.store.backend;
  }

  get description(): string {
    return this.store.description;
  }

  /** Warms the cache at start; a secret whose value is missing from the store is reported, not hidden. */
  async load(): Promise<string[]> {
    const missing: string[] = [];
    for (const record of await this.repo.all()) {
      const account = secretAccount(record.factoryId, record.name);
      const value = await this.store.get(account);
      if (value === null) missing.push(account);
      else this.cache.set(account, value);
    }
    return missing;
  }

  /** The ingress hot path: memory only. */
  cachedValue(factoryId: string, name: string): string | undefined {
    return this.cache.get(secretAccount(factoryId, name));
  }

  get(factoryId: string, name: string): Promise<SecretRecord | null> {
    return this.repo.get(factoryId, name);
  }

  list(factoryId: string): Promise<SecretRecord[]> {
    return this.repo.list(factoryId);
  }

  /**
   * Whether the store holds a value under this name that this relay has no record of: another
   * Hookport relay on this machine shares the keychain, or an earlier data dir was deleted while
   * its items stayed in the keychain.
   */
  async heldElsewhere(factoryId: string, name: string): Promise<boolean> {
    if (await this.repo.get(factoryId, name)) return false;
    return (await this.store.get(secretAccount(factoryId, name))) !== null;
  }

  /** `field` names the input that chose `name`, for the error when the name is held elsewhere. */
  async create(
    factoryId: string,
    name: string,
    value: string,
    field = 'name',
  ): Promise<SecretRecord> {
    const account = secretAccount(factoryId, name);
    // Callers create only names this relay has no row for, so an existing item belongs to someone
    // else (see heldElsewhere): never overwrite it silently.
    if ((await this.store.get(account)) !== null) {
      throw new ApiError(
        'conflict',
        `${field}: the ${this.store.backend} already holds a secret "${account}" that this relay did not create (another Hookport relay, or an earlier data dir); choose another name`,
        field,
      );
    }
    // Value first: a row must never point at a value that was not stored.
    await this.store.set(account, value);
    try {
      await this.repo.insert({
        factoryId,
        name,
        fingerprint: fingerprintOf(value),
        createdAt: this.now(),
      });
    } catch (error) {
      await this.store.delete(account);
      throw error;
    }
    this.cache.set(account, value);
    return (await this.repo.get(factoryId, name))!;
  }

  /** Once this returns, the ingress only accepts the new value: no overlap window. */
  async rotate(factoryId: string, name: string, value: string): Promise<SecretRecord> {
    const account = secretAccount(factoryId, name);
    await this.store.set(account, value);
    this.cache.set(account, value);
    await this.repo.rotate({
      factoryId,
      name,
      fingerprint: fingerprintOf(value),
      rotatedAt: this.now(),
    });
    return (await this.repo.get(factoryId, name))!;
  }

  /**
   * Re-reads values from the store, for secrets changed outside this relay (a managed factory's
   * secret rotated in the keychain): the ingress uses the new value from then on. Returns the
   * names whose value changed.
   */
  async refresh(factoryId: string, names: readonly string[]): Promise<string[]> {
    const changed: string[] = [];
    for (const name of names) {
      if (!(await this.repo.get(factoryId, name))) continue;
      const account = secretAccount(factoryId, name);
      const value = await this.store.get(account);
      if (value === null || value === this.cache.get(account)) continue;
      this.cache.set(account, value);
      await this.repo.rotate({
        factoryId,
        name,
        fingerprint: fingerprintOf(value),
        rotatedAt: this.now(),
      });
      changed.push(name);
    }
    return changed;
  }

  async remove(factoryId: string, name: string): Promise<void> {
    const account = secretAccount(factoryId, name);
    await this.repo.remove(factoryId, name);
    this.cache.delete(account);
    await this.store.delete(account);
  }
}
