import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe } from 'vitest';
import { openDatabase, type Db } from '../../src/main/store/sqlite/db.js';
import type { Queryable } from '../../src/main/store/postgres/client.js';
import { createAlarmsRepository } from '../../src/main/store/sqlite/alarms-repo.js';
import { createAutomationsRepository } from '../../src/main/store/sqlite/automations-repo.js';
import { createExecutorsRepository } from '../../src/main/store/sqlite/executors-repo.js';
import { createFactoriesRepository } from '../../src/main/store/sqlite/factories-repo.js';
import { createLinksRepository } from '../../src/main/store/sqlite/links-repo.js';
import { createPostgresLinksRepository } from '../../src/main/store/postgres/links-repo.js';
import { createPostgresAlarmsRepository } from '../../src/main/store/postgres/alarms-repo.js';
import { createPostgresAutomationsRepository } from '../../src/main/store/postgres/automations-repo.js';
import { createPostgresExecutorsRepository } from '../../src/main/store/postgres/executors-repo.js';
import { createPostgresFactoriesRepository } from '../../src/main/store/postgres/factories-repo.js';
import { createPostgresSecretsRepository } from '../../src/main/store/postgres/secrets-repo.js';
import { createPostgresSettingsRepository } from '../../src/main/store/postgres/settings-repo.js';
import { createPostgresTokensRepository } from '../../src/main/store/postgres/tokens-repo.js';
import { createPostgresWebhooksRepository } from '../../src/main/store/postgres/webhooks-repo.js';
import { createSecretsRepository } from '../../src/main/store/sqlite/secrets-repo.js';
import { createSettingsRepository } from '../../src/main/store/sqlite/settings-repo.js';
import { createTokensRepository } from '../../src/main/store/sqlite/tokens-repo.js';
import { createWebhooksRepository } from '../../src/main/store/sqlite/webhooks-repo.js';
import {
  asyncRepository,
  type StoreKind,
  type StoreRepositories,
} from '../../src/main/store/store.js';
import { usePostgres } from './postgres.js';
import { tempDir } from './relay.js';

/** One fresh, migrated database of either store, as its repositories are built on. */
export type ContractDatabase = { kind: 'sqlite'; db: Db } | { kind: 'postgres'; q: Queryable };

/** The repositories both stores implement so far, as `Store` offers them. */
export type ContractRepositories = Pick<
  StoreRepositories,
  | 'factories'
  | 'webhooks'
  | 'automations'
  | 'secrets'
  | 'tokens'
  | 'settings'
  | 'executors'
  | 'alarms'
  | 'links'
>;

export interface OpenedStore {
  database: ContractDatabase;
  repositories: ContractRepositories;
}

export interface ContractStore {
  kind: StoreKind;
  /** A fresh, migrated database for this test: nothing another test wrote is in it. */
  open(): Promise<OpenedStore>;
}

function repositoriesOf(database: ContractDatabase): ContractRepositories {
  if (database.kind === 'sqlite') {
    const { db } = database;
    return {
      factories: asyncRepository(createFactoriesRepository(db)),
      webhooks: asyncRepository(createWebhooksRepository(db)),
      automations: asyncRepository(createAutomationsRepository(db)),
      secrets: asyncRepository(createSecretsRepository(db)),
      tokens: asyncRepository(createTokensRepository(db)),
      settings: asyncRepository(createSettingsRepository(db)),
      executors: asyncRepository(createExecutorsRepository(db)),
      alarms: asyncRepository(createAlarmsRepository(db)),
      links: asyncRepository(createLinksRepository(db)),
    };
  }
  const { q } = database;
  return {
    factories: createPostgresFactoriesRepository(q),
    webhooks: createPostgresWebhooksRepository(q),
    automations: createPostgresAutomationsRepository(q),
    secrets: createPostgresSecretsRepository(q),
    tokens: createPostgresTokensRepository(q),
    settings: createPostgresSettingsRepository(q),
    executors: createPostgresExecutorsRepository(q),
    alarms: createPostgresAlarmsRepository(q),
    links: createPostgresLinksRepository(q),
  };
}

const opened = (database: ContractDatabase): OpenedStore => ({
  database,
  repositories: repositoriesOf(database),
});

/**
 * A contract suite, written once and run against both stores: SQLite on a real file in a temp
 * dir, PostgreSQL on a fresh database of a private cluster (started for this file's PostgreSQL
 * half only). Whatever the suite asserts, callers may rely on from either store.
 */
export function forEachStore(suite: (store: ContractStore) => void): void {
  describe.each<StoreKind>(['sqlite', 'postgres'])('on %s', (kind) => {
    suite(kind === 'sqlite' ? sqliteStore() : postgresStore());
  });
}

function sqliteStore(): ContractStore {
  const files: { db: Db; dir: string }[] = [];
  afterEach(() => {
    for (const { db, dir } of files.splice(0)) {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return {
    kind: 'sqlite',
    open() {
      const dir = tempDir('hookport-contract-');
      const db = openDatabase(join(dir, 'hookport.sqlite'));
      files.push({ db, dir });
      return Promise.resolve(opened({ kind: 'sqlite', db }));
    },
  };
}

function postgresStore(): ContractStore {
  const postgres = usePostgres();
  return {
    kind: 'postgres',
    async open() {
      const { pool } = await postgres.database();
      return opened({ kind: 'postgres', q: pool });
    },
  };
}

/** A row as a test seeds it, column names as in the table; booleans as the store spells them. */
export type SeedRow = Record<string, string | number | boolean | Buffer | null>;

/**
 * Inserts rows straight into a table of either store, for what a suite needs but does not test
 * (deliveries an alarm reads, say). Parameterized; names come from the test, never from input.
 */
export async function seedRows(
  database: ContractDatabase,
  table: string,
  rows: SeedRow[],
): Promise<void> {
  for (const row of rows) {
    const columns = Object.keys(row);
    const values = Object.values(row);
    if (database.kind === 'sqlite') {
      const sqliteValues = values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
      database.db
        .prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        )
        .run(...sqliteValues);
    } else {
      await database.q.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    }
  }
}
