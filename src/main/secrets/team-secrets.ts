import { ApiError } from '../../shared/errors.js';
import { SerialQueue } from '../service/serial-queue.js';
import type { SecretRecord, SecretsRepository } from '../store/secrets.js';
import { fingerprinter, fingerprintKey, type Fingerprinter } from './fingerprint-key.js';
import { secretAccount, type SecretStore } from './secret-store.js';

/**
 * Named team secrets: names and fingerprints in SQLite, values in the secret store, and every
 * value cached in memory so the ingress never waits on a keychain.
 */
export class TeamSecrets {
  private readonly cache = new Map<string, string>();
  private fingerprinter: Fingerprinter | null = null;
  /**
   * Loads and writes take turns: a load that read the rows before a create or rotate here would
   * otherwise put its older values back over the new one (a genuine sender answered 401 until the
   * next reload, or a rotated-out value accepted again). Announcing stays outside the turn.
   */
  private readonly turns = new SerialQueue();

  constructor(
    private readonly repo: SecretsRepository,
    private readonly store: SecretStore,
    private readonly now: () => number = Date.now,
    /**
     * Tells the other relays on the store (PostgreSQL replicas) and resolves once each uses the
     * change; alone on SQLite, at once.
     */
    private readonly announce: () => Promise<void> = () => Promise.resolve(),
  ) {}

  get backend(): SecretStore['backend'] {
    return this.store.backend;
  }

  get description(): string {
    return this.store.description;
  }

  /** Warms the cache at start; a secret whose value is missing from the store is reported, not hidden. */
  load(): Promise<string[]> {
    return this.turns.run(() => this.loadNow());
  }

  private async loadNow(): Promise<string[]> {
    const missing: string[] = [];
    const values = new Map<string, string>();
    const records = await this.repo.all();
    for (const record of records) {
      const account = secretAccount(record.factoryId, record.name);
      const value = await this.store.get(account);
      if (value === null) missing.push(account);
      else values.set(account, value);
    }
    // Loaded again when another relay changed a secret: one removed there is gone here too.
    this.cache.clear();
    for (const [account, value] of values) this.cache.set(account, value);
    await this.refingerprint(records, values);
    return missing;
  }

  /** An HMAC of the value under the relay's fingerprint key (fingerprint-key.ts). */
  async fingerprintOf(value: string): Promise<string> {
    this.fingerprinter ??= fingerprinter(await fingerprintKey(this.store));
    return this.fingerprinter(value);
  }

  /**
   * Fingerprints made before they were HMACs (a bare SHA-256 prefix, a dictionary check for a
   * chosen value) are made again from the value; where the value is missing, dropped ('').
   */
  private async refingerprint(
    records: readonly SecretRecord[],
    values: ReadonlyMap<string, string>,
  ): Promise<void> {
    for (const record of records) {
      const value = values.get(secretAccount(record.factoryId, record.name));
      const fingerprint = value === undefined ? '' : await this.fingerprintOf(value);
      if (record.fingerprint !== fingerprint) {
        await this.repo.setFingerprint(record.factoryId, record.name, fingerprint);
      }
    }
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
    await this.turns.run(() => this.createNow(account, factoryId, name, value, field));
    await this.announce();
    return (await this.repo.get(factoryId, name))!;
  }

  private async createNow(
    account: string,
    factoryId: string,
    name: string,
    value: string,
    field: string,
  ): Promise<void> {
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
        fingerprint: await this.fingerprintOf(value),
        createdAt: this.now(),
      });
    } catch (error) {
      await this.store.delete(account);
      throw error;
    }
    this.cache.set(account, value);
  }

  /**
   * Once this returns, the ingress only accepts the new value, on every relay of the store: no
   * overlap window.
   */
  async rotate(factoryId: string, name: string, value: string): Promise<SecretRecord> {
    const account = secretAccount(factoryId, name);
    await this.turns.run(async () => {
      await this.store.set(account, value);
      await this.useRotated(factoryId, name, value);
    });
    await this.announce();
    return (await this.repo.get(factoryId, name))!;
  }

  /**
   * Re-reads values from the store, for secrets changed outside this relay (a managed factory's
   * secret rotated in the keychain): the ingress uses the new value from then on. Returns the
   * names whose value changed.
   */
  async refresh(factoryId: string, names: readonly string[]): Promise<string[]> {
    const changed = await this.turns.run(() => this.refreshNow(factoryId, names));
    if (changed.length > 0) await this.announce();
    return changed;
  }

  private async refreshNow(factoryId: string, names: readonly string[]): Promise<string[]> {
    const changed: string[] = [];
    for (const name of names) {
      if (!(await this.repo.get(factoryId, name))) continue;
      const account = secretAccount(factoryId, name);
      const value = await this.store.get(account);
      if (value === null || value === this.cache.get(account)) continue;
      await this.useRotated(factoryId, name, value);
      changed.push(name);
    }
    return changed;
  }

  /** The ingress takes `value` at once; the row records the rotation and its fingerprint. */
  private async useRotated(factoryId: string, name: string, value: string): Promise<void> {
    this.cache.set(secretAccount(factoryId, name), value);
    await this.repo.rotate({
      factoryId,
      name,
      fingerprint: await this.fingerprintOf(value),
      rotatedAt: this.now(),
    });
  }

  async remove(factoryId: string, name: string): Promise<void> {
    const account = secretAccount(factoryId, name);
    await this.turns.run(async () => {
      await this.repo.remove(factoryId, name);
      this.cache.delete(account);
      await this.store.delete(account);
    });
    await this.announce();
  }
}
