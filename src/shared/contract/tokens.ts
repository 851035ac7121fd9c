import { z } from 'zod';
import { isoTime, listOf } from './common.js';
import { method } from './define.js';

export const roleSchema = z.enum(['manage', 'view'], { error: () => 'must be "manage" or "view"' });

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema,
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
});

export const tokenMethods = {
  'tokens.list': method({
    role: 'manage',
    summary: 'List admin API tokens (never their values)',
    http: { method: 'GET', path: '/api/tokens' },
    input: z.object({}),
    output: listOf(apiTokenSchema),
  }),
  'tokens.create': method({
    role: 'manage',
    summary: 'Mint an admin API token; its value is shown once',
    http: { method: 'POST', path: '/api/tokens', status: 201 },
    input: z.strictObject({
      name: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
      role: roleSchema,
    }),
    output: z.object({ token: apiTokenSchema, value: z.string() }),
  }),
  'tokens.delete': method({
    role: 'manage',
    summary: 'Revoke an admin API token at once',
    http: { method: 'DELETE', path: '/api/tokens/:id' },
    input: z.object({ id: z.string().regex(/^tok_[0-9A-Z]{26}$/, 'must be a token id (tok_…)') }),
    output: z.object({ id: z.string(), deleted: z.literal(true) }),
  }),
};
