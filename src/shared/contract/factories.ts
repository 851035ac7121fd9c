import { z } from 'zod';
import { factoryIdSchema, listOf } from './common.js';
import { method } from './define.js';

export const factorySchema = z.object({
  id: factoryIdSchema,
  name: z.string(),
  managed: z.boolean(),
  definitionsDir: z.string().nullable(),
  webhookCount: z.number().int(),
  webhookLimit: z.number().int(),
});
export type Factory = z.infer<typeof factorySchema>;

export const planItemSchema = z.object({
  kind: z.enum(['webhook', 'automation']),
  name: z.string(),
  file: z.string().nullable(),
  action: z.enum(['create', 'update', 'delete', 'unchanged']),
  /** The webhook's UID or the automation's id (a created webhook's new UID once applied). */
  id: z.string().nullable(),
  changes: z.array(z.string()),
  note: z.string().nullable(),
});
export type PlanItem = z.infer<typeof planItemSchema>;

export const factoryMethods = {
  'factories.list': method({
    role: 'view',
    summary: 'List factories',
    http: { method: 'GET', path: '/api/factories' },
    input: z.object({}),
    output: listOf(factorySchema),
  }),
  'factories.sync': method({
    role: 'manage',
    summary:
      'Apply the definition directory (or only plan it): create / update / delete / unchanged per file',
    http: { method: 'POST', path: '/api/factories/:id/sync' },
    input: z.strictObject({
      id: factoryIdSchema,
      /** Absolute path on the relay's machine; makes the factory managed by that directory. */
      dir: z.string().min(1).max(4096).optional(),
      dryRun: z.boolean().default(false),
    }),
    output: z.object({
      factory: factoryIdSchema,
      definitionsDir: z.string(),
      applied: z.boolean(),
      items: z.array(planItemSchema),
      ignored: z.array(z.string()),
      /** Automations that will stop firing because a webhook they select is (or was) deleted. */
      warnings: z.array(z.string()),
    }),
  }),
};
