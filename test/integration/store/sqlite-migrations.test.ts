import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../src/main/store/sqlite/migrate.js';
import { schemaVersions, type SchemaVersion } from '../../../src/main/store/schema-versions.js';
import { tempDir } from '../../support/relay.js';

const NEWEST = schemaVersions[schemaVersions.length - 1]!.version;

function freshFile(): Database.Database {
  return new Database(join(tempDir(), 'migrations.sqlite'));
}

const appliedIn = (db: Database.Database): number[] =>
  db
    .prepare<[], { version: number }>('SELECT version FROM hookport_schema ORDER BY version')
    .all()
    .map((r) => r.version);

/** A version that makes a table named after it, so a test sees whether (and how often) it ran. */
const marker = (version: number): SchemaVersion => ({
  version,
  name: `marker-${version}`,
  sqlite: (db) => db.exec(`CREATE TABLE marker_${version} (x INTEGER) STRICT`),
  postgres: '',
});

describe('SQLite migrations, one list for both stores', () => {
  it('record every version they apply, as PostgreSQL does, and apply nothing twice', () => {
    const db = freshFile();
    runMigrations(db);
    expect(appliedIn(db)).toEqual(schemaVersions.map((v) => v.version));
    expect(db.pragma('user_version', { simple: true })).toBe(NEWEST);

    runMigrations(db);
    expect(appliedIn(db)).toEqual(schemaVersions.map((v) => v.version));
    db.close();
  });

  it('take over a file that counted its steps in user_version, without running them again', () => {
    const db = freshFile();
    const [first, second, third] = [marker(1), marker(2), marker(3)];
    db.exec('CREATE TABLE marker_1 (x INTEGER) STRICT; CREATE TABLE marker_2 (x INTEGER) STRICT');
    db.pragma('user_version = 2');

    runMigrations(db, [first, second, third]);

    expect(appliedIn(db)).toEqual([1, 2, 3]);
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'marker_3'").get(),
    ).toEqual({ n: 1 });
    db.close();
  });

  it('apply a lower number that lands after a higher one', () => {
    const db = freshFile();
    runMigrations(db, [marker(1), marker(3)]);

    runMigrations(db, [marker(1), marker(2), marker(3)]);

    expect(appliedIn(db)).toEqual([1, 2, 3]);
    db.close();
  });

  it('refuse a file that a newer Hookport has migrated, naming both versions', () => {
    const db = freshFile();
    runMigrations(db, [marker(1), marker(2)]);

    expect(() => runMigrations(db, [marker(1)])).toThrow(
      'The database is at schema version 2, newer than this Hookport (1). Upgrade Hookport.',
    );
    db.close();
  });

  it('leave a version that fails unrecorded, so the next start tries it again', () => {
    const db = freshFile();
    const failing: SchemaVersion = {
      version: 2,
      name: 'failing',
      sqlite: () => {
        throw new Error('disk full');
      },
      postgres: '',
    };
    expect(() => runMigrations(db, [marker(1), failing])).toThrow('disk full');
    expect(appliedIn(db)).toEqual([1]);

    runMigrations(db, [marker(1), marker(2)]);
    expect(appliedIn(db)).toEqual([1, 2]);
    db.close();
  });
});
