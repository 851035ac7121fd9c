import { toRecord, type FactoriesRepository, type FactoryRow } from '../factories.js';
import { row, rows, run, type Calls } from './query.js';

const SELECT = 'SELECT id, name, definitions_dir, executor, created_at FROM factories';

/** The factories table's SQL, for both stores. */
export const factoriesCalls: Calls<FactoriesRepository> = {
  all: () => rows(`${SELECT} ORDER BY created_at, id`, [], toRecord),
  get: (id) => row(`${SELECT} WHERE id = $1`, [id], (r?: FactoryRow) => (r ? toRecord(r) : null)),
  // Every relay ensures the default factory at start: the first one wins, the rest do nothing.
  ensure: (id, name, createdAt) =>
    run(
      'INSERT INTO factories (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING',
      [id, name, createdAt],
    ),
  setDefinitionsDir: (id, dir) =>
    run('UPDATE factories SET definitions_dir = $1 WHERE id = $2', [dir, id]),
};
