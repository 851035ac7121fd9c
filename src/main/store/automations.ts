import type { WebhookTrigger } from '../../shared/contract/triggers.js';

export interface AutomationRecord {
  id: string;
  factoryId: string;
  name: string;
  prompt: string;
  enabled: boolean;
  triggers: WebhookTrigger[];
  sourceFile: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface AutomationRow {
  id: string;
  factory_id: string;
  name: string;
  prompt: string;
  /** SQLite answers 0/1, PostgreSQL a boolean. */
  enabled: number | boolean;
  triggers: string;
  source_file: string | null;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: AutomationRow): AutomationRecord => ({
  id: r.id,
  factoryId: r.factory_id,
  name: r.name,
  prompt: r.prompt,
  enabled: r.enabled === 1 || r.enabled === true,
  // Written only after validation against the trigger schema, so read back as trusted.
  triggers: JSON.parse(r.triggers) as WebhookTrigger[],
  sourceFile: r.source_file,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface AutomationsRepository {
  all(): Promise<AutomationRecord[]>;
  list(factoryId: string): Promise<AutomationRecord[]>;
  get(id: string): Promise<AutomationRecord | null>;
  insert(a: AutomationRecord): Promise<void>;
  update(a: AutomationRecord): Promise<void>;
  remove(id: string): Promise<boolean>;
}
