export interface SecretRecord {
  factoryId: string;
  name: string;
  fingerprint: string;
  createdAt: number;
  rotatedAt: number | null;
}

export interface SecretRow {
  factory_id: string;
  name: string;
  fingerprint: string;
  created_at: number;
  rotated_at: number | null;
}

export const toRecord = (r: SecretRow): SecretRecord => ({
  factoryId: r.factory_id,
  name: r.name,
  fingerprint: r.fingerprint,
  createdAt: r.created_at,
  rotatedAt: r.rotated_at,
});

/** Secrets' names and fingerprints; their values live in the secret store, never here. */
export interface SecretsRepository {
  all(): Promise<SecretRecord[]>;
  list(factoryId: string): Promise<SecretRecord[]>;
  get(factoryId: string, name: string): Promise<SecretRecord | null>;
  insert(r: {
    factoryId: string;
    name: string;
    fingerprint: string;
    createdAt: number;
  }): Promise<void>;
  rotate(r: {
    factoryId: string;
    name: string;
    fingerprint: string;
    rotatedAt: number;
  }): Promise<void>;
  remove(factoryId: string, name: string): Promise<void>;
  /** A fingerprint made again (under the relay's fingerprint key); not a rotation. */
  setFingerprint(factoryId: string, name: string, fingerprint: string): Promise<void>;
}
