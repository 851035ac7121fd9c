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

export const factoryMethods = {
  'factories.list': method({
    role: 'view',
    summary: 'List factories',
    http: { method: 'GET', path: '/api/factories' },
    input: z.object({}),
    output: listOf(factorySchema),
  }),
};
