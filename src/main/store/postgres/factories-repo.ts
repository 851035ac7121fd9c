import { toRecord, type FactoryRow, type FactoriesRepository } from '../factories.js';
import type { Queryable } from './client.js';

const COLUMNS = 'id, name, definitions_dir, executor, created_at';

/** factories-repo.ts on PostgreSQL: the same calls, the same records. */
export function createPostgresFactoriesRepository(q: Queryable): FactoriesRepository {
  return {
    all: async () => {
      const { rows } = await q.query<FactoryRow>(
        `SELECT ${COLUMNS} FROM factories ORDER BY created_at, id`,
      );
      return rows.map(toRecord);
    },
    get: async (id) => {
      const { rows } = await q.query<FactoryRow>(`SELECT ${COLUMNS} FROM factories WHERE id = $1`, [
        id,
      ]);
      return rows[0] ? toRecord(rows[0]) : null;
    },
    // Every replica ensures the default factory at start: the first one wins, the rest do nothing.
    ensure: async (id, name, createdAt) => {
      await q.query(
        'INSERT INTO factories (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
        [id, name, createdAt],
      );
    },
    setDefinitionsDir: async (id, dir) => {
      await q.query('UPDATE factories SET definitions_dir = $1 WHERE id = $2', [dir, id]);
    },
  };
}
