import { z } from 'zod';
import {
  deliveryIdSchema,
  factoryIdSchema,
  isoTime,
  listOf,
  optionalFactorySchema,
  resourceNameSchema,
} from './common.js';
import { method } from './define.js';
import { triggersSchema, webhookTriggerSchema } from './triggers.js';

export const AUTOMATION_ID_PATTERN = /^aut_[0-9A-HJKMNP-TV-Z]{26}$/;
export const automationIdSchema = z
  .string()
  .regex(AUTOMATION_ID_PATTERN, 'must be an automation id (aut_ and 26 characters)');

export const MAX_PROMPT_LENGTH = 100_000;
const promptSchema = z
  .string()
  .refine((text) => text.trim() !== '', { message: 'must not be empty' })
  .refine((text) => !text.includes('\u0000'), { message: 'must not contain a NUL character' })
  .refine((text) => text.length <= MAX_PROMPT_LENGTH, {
    message: `must be at most ${MAX_PROMPT_LENGTH} characters`,
  });

/** The warning the UI shows as a badge (seed §3: such automations stay visible but stop firing). */
export const DELETED_WEBHOOK_WARNING = 'points at a deleted webhook';

export const automationSchema = z.object({
  id: automationIdSchema,
  factory: factoryIdSchema,
  name: z.string(),
  prompt: z.string(),
  enabled: z.boolean(),
  triggers: triggersSchema,
  /** Each webhook the triggers select, by UID, with its name (null if it never existed here). */
  webhooks: z.array(
    z.object({ uid: z.string(), name: z.string().nullable(), deleted: z.boolean() }),
  ),
  /** Selected webhooks that were deleted; deliveries from them can no longer arrive. */
  deletedWebhookUids: z.array(z.string()),
  /** Sentences for the operator, e.g. "points at a deleted webhook: …". Empty when all is well. */
  warnings: z.array(z.string()),
  /** Runs started in the last 24 hours. */
  runs24h: z.number().int(),
  /** The definition file it came from, on a managed factory. */
  sourceFile: z.string().nullable(),
  createdAt: isoTime,
  updatedAt: isoTime,
});
export type Automation = z.infer<typeof automationSchema>;

export const filterFailureSchema = z.object({
  /** Dotted path ('' for the body itself). */
  path: z.string(),
  expected: z.string(),
  actual: z.string(),
});

export const TEST_FILTER_VERDICTS = ['Would trigger', 'Would not trigger'] as const;

/** A payload or header check: for a failed one, the first failing path, expected and actual. */
const filterCheckSchema = z.object({
  passed: z.boolean(),
  /** Set when the check failed: the first failing path ('' for the body itself), expected, actual. */
  failingPath: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  detail: z.string(),
  /** Every failing path of the filter, the first one first (empty when the check passed). */
  failures: z.array(filterFailureSchema).default([]),
});
export type FilterCheck = z.infer<typeof filterCheckSchema>;

export const testFilterResultSchema = z.object({
  verdict: z.enum(TEST_FILTER_VERDICTS),
  webhookCheck: z.object({ passed: z.boolean(), detail: z.string() }),
  payloadCheck: filterCheckSchema,
  /** The header filter against the stored request headers (names case-insensitive). */
  headerCheck: filterCheckSchema,
});
export type TestFilterResult = z.infer<typeof testFilterResultSchema>;

export const automationMethods = {
  'automations.list': method({
    role: 'view',
    summary: 'List the automations of a factory',
    http: { method: 'GET', path: '/api/automations' },
    input: z.object({ factory: optionalFactorySchema }),
    output: listOf(automationSchema),
  }),
  'automations.create': method({
    role: 'manage',
    summary: 'Create an automation: name, prompt, enabled and Webhook triggers',
    http: { method: 'POST', path: '/api/automations', status: 201 },
    input: z.strictObject({
      factory: optionalFactorySchema,
      name: resourceNameSchema,
      prompt: promptSchema,
      enabled: z.boolean().default(true),
      triggers: triggersSchema,
    }),
    output: automationSchema,
  }),
  'automations.get': method({
    role: 'view',
    summary: 'Read one automation',
    http: { method: 'GET', path: '/api/automations/:id' },
    input: z.object({ id: automationIdSchema }),
    output: automationSchema,
  }),
  'automations.update': method({
    role: 'manage',
    summary: 'Change name, prompt, enabled or triggers (triggers are replaced as a whole)',
    http: { method: 'PATCH', path: '/api/automations/:id' },
    input: z.strictObject({
      id: automationIdSchema,
      name: resourceNameSchema.optional(),
      prompt: promptSchema.optional(),
      enabled: z.boolean().optional(),
      triggers: triggersSchema.optional(),
    }),
    output: automationSchema,
  }),
  'automations.delete': method({
    role: 'manage',
    summary: 'Delete an automation; its queued runs fail, finished runs stay readable',
    http: { method: 'DELETE', path: '/api/automations/:id' },
    input: z.object({ id: automationIdSchema }),
    output: z.object({ id: z.string(), deleted: z.literal(true) }),
  }),
  'automations.testFilter': method({
    role: 'view',
    summary:
      'Test filter: would this (possibly unsaved) trigger start a run for a stored delivery?',
    http: { method: 'POST', path: '/api/automations/test-filter' },
    input: z.strictObject({ trigger: webhookTriggerSchema, deliveryId: deliveryIdSchema }),
    output: testFilterResultSchema,
  }),
};
