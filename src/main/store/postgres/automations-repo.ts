import {
  toRecord,
  type AutomationRow,
  type AutomationRecord,
  type AutomationsRepository,
} from '../automations.js';
import type { Queryable } from './client.js';

const COLUMNS =
  'id, factory_id, name, prompt, enabled, triggers, source_file, created_at, updated_at';

/** automations-repo.ts on PostgreSQL; triggers stay JSON text, read back byte for byte. */
export function createPostgresAutomationsRepository(q: Queryable): AutomationsRepository {
  const many = async (sql: string, params: unknown[] = []): Promise<AutomationRecord[]> =>
    (await q.query<AutomationRow>(sql, params)).rows.map(toRecord);

  return {
    all: () => many(`SELECT ${COLUMNS} FROM automations ORDER BY created_at, id`),
    list: (factoryId) =>
      many(`SELECT ${COLUMNS} FROM automations WHERE factory_id = $1 ORDER BY name, id`, [
        factoryId,
      ]),
    get: async (id) => {
      const { rows } = await q.query<AutomationRow>(
        `SELECT ${COLUMNS} FROM automations WHERE id = $1`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    insert: async (a) => {
      await q.query(
        `INSERT INTO automations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          a.id,
          a.factoryId,
          a.name,
          a.prompt,
          a.enabled,
          JSON.stringify(a.triggers),
          a.sourceFile,
          a.createdAt,
          a.updatedAt,
        ],
      );
    },
    update: async (a) => {
      await q.query(
        `UPDATE automations SET name = $2, prompt = $3, enabled = $4, triggers = $5,
                                source_file = $6, updated_at = $7
         WHERE id = $1`,
        [a.id, a.name, a.prompt, a.enabled, JSON.stringify(a.triggers), a.sourceFile, a.updatedAt],
      );
    },
    remove: async (id) => {
      const { rowCount } = await q.query('DELETE FROM automations WHERE id = $1', [id]);
      return rowCount === 1;
    },
  };
}
