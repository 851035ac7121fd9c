import Database from 'better-sqlite3';
import { schemaVersions } from '../../src/main/store/schema-versions.js';
import { runMigrations } from '../../src/main/store/sqlite/migrate.js';
import { indexRows } from '../../src/main/store/sqlite/search-index.js';
import { seedLog } from './seed-log.js';

/**
 * Each bird holds a letter that Crockford's base 32 leaves out (I, L, O, U): a search matches
 * delivery IDs too, and an ID made from the clock once spelled WREN, found by a search for it.
 */
const BIRDS = ['kestrel', 'osprey', 'heron', 'robin'] as const;
const PADDING = 'lorem ipsum dolor sit amet '.repeat(30);

/**
 * A relay's file as version 16 left it: `entries` Accepted entries of one webhook (`{n, bird,
 * note}`, a bird of BIRDS by n and lorem ipsum), its search index built inside it as that
 * relay's indexer did, except the entries `leftQueued` keeps queued. The next open migrates it.
 */
export function writeVersion16File(
  file: string,
  webhookUid: string,
  entries: number,
  leftQueued: (rowid: number) => boolean = () => false,
): void {
  const old = new Database(file);
  try {
    runMigrations(
      old,
      schemaVersions.filter((v) => v.version < 17),
    );
    seedLog(old, webhookUid, entries, {
      bodyOf: (i) => JSON.stringify({ n: i, bird: BIRDS[i % 4], note: PADDING }),
      labelOf: () => 'Accepted',
    });
    old.function('left_queued', (rowid: number) => (leftQueued(rowid) ? 1 : 0));
    old.exec(`${indexRows('main')} WHERE NOT left_queued(d.rowid);
      DELETE FROM delivery_search_pending WHERE NOT left_queued(delivery_rowid)`);
  } finally {
    old.close();
  }
}
