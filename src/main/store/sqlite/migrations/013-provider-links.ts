import type Database from 'better-sqlite3';
import { PROVIDER_LINKS_SQL } from '../../provider-links-sql.js';

/** Version 13: provider links (PRODUCT §19) and the redeliveries each recovery asked for. */
export function up(db: Database.Database): void {
  db.exec(PROVIDER_LINKS_SQL);
}
