import { toRecord, type AutomationRow, type AutomationsRepository } from '../automations.js';
import { one, row, rows, run, type Calls } from './query.js';

const COLUMNS =
  'id, factory_id, name, prompt, enabled, triggers, source_file, created_at, updated_at';
const SELECT = `SELECT ${COLUMNS} FROM automations`;

/** The automations table's SQL, for both stores; triggers stay JSON text, read back byte for byte. */
export const automationsCalls: Calls<AutomationsRepository> = {
  all: () => rows(`${SELECT} ORDER BY created_at, id`, [], toRecord),
  list: (factoryId) =>
    rows(`${SELECT} WHERE factory_id = $1 ORDER BY name, id`, [factoryId], toRecord),
  get: (id) =>
    row(`${SELECT} WHERE id = $1`, [id], (r?: AutomationRow) => (r ? toRecord(r) : null)),
  insert: (a) =>
    run(`INSERT INTO automations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      a.id,
      a.factoryId,
      a.name,
      a.prompt,
      a.enabled,
      JSON.stringify(a.triggers),
      a.sourceFile,
      a.createdAt,
      a.updatedAt,
    ]),
  update: (a) =>
    run(
      `UPDATE automations SET name = $2, prompt = $3, enabled = $4, triggers = $5,
                              source_file = $6, updated_at = $7
       WHERE id = $1`,
      [a.id, a.name, a.prompt, a.enabled, JSON.stringify(a.triggers), a.sourceFile, a.updatedAt],
    ),
  remove: (id) => run('DELETE FROM automations WHERE id = $1', [id], one),
};
