import {
  type AutomationRecord,
  type AutomationRow,
  toRecord,
  type AutomationsRepository,
} from '../automations.js';
import type { Sync } from '../store.js';
import type { Db } from './db.js';

export function createAutomationsRepository(db: Db): Sync<AutomationsRepository> {
  const all = db.prepare<[], AutomationRow>('SELECT * FROM automations ORDER BY created_at, id');
  const byFactory = db.prepare<[string], AutomationRow>(
    'SELECT * FROM automations WHERE factory_id = ? ORDER BY name, id',
  );
  const one = db.prepare<[string], AutomationRow>('SELECT * FROM automations WHERE id = ?');
  const insert = db.prepare(`
    INSERT INTO automations (id, factory_id, name, prompt, enabled, triggers, source_file, created_at, updated_at)
    VALUES (@id, @factoryId, @name, @prompt, @enabled, @triggers, @sourceFile, @createdAt, @updatedAt)`);
  const update = db.prepare(`
    UPDATE automations SET name = @name, prompt = @prompt, enabled = @enabled, triggers = @triggers,
                           source_file = @sourceFile, updated_at = @updatedAt
    WHERE id = @id`);
  const remove = db.prepare('DELETE FROM automations WHERE id = ?');

  const params = (a: AutomationRecord) => ({
    ...a,
    enabled: a.enabled ? 1 : 0,
    triggers: JSON.stringify(a.triggers),
  });

  return {
    all: (): AutomationRecord[] => all.all().map(toRecord),
    list: (factoryId: string): AutomationRecord[] => byFactory.all(factoryId).map(toRecord),
    get: (id: string): AutomationRecord | null => {
      const row = one.get(id);
      return row ? toRecord(row) : null;
    },
    insert: (a: AutomationRecord): void => {
      insert.run(params(a));
    },
    update: (a: AutomationRecord): void => {
      update.run(params(a));
    },
    remove: (id: string): boolean => remove.run(id).changes === 1,
  };
}
