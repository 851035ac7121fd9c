import { z } from 'zod';
import { factoryIdSchema } from './common.js';
import { method } from './define.js';

/** An absolute path on Linux/macOS (`/…`) or Windows (`C:\…`); relative ones would depend on where the relay started. */
const absolutePath = z
  .string()
  .regex(/^(\/|[A-Za-z]:[\\/])/, 'must be an absolute path')
  .max(4096, 'must be at most 4096 characters');

/** `record` (the default): keeps the run and its input, runs nothing, and marks it succeeded. */
export const recordExecutorSchema = z.strictObject({ kind: z.literal('record') });

/**
 * `command`: runs a program in a fresh run folder holding PROMPT.md and event-payload.json.
 * No shell unless `shell: true` says so: the command and its arguments go to the program as given.
 */
export const commandExecutorSchema = z.strictObject({
  kind: z.literal('command'),
  command: z.string().min(1, 'must name a program').max(4096, 'must be at most 4096 characters'),
  args: z.array(z.string().max(4096, 'must be at most 4096 characters')).max(100).default([]),
  /** Where the program starts; the run folder when left out. */
  cwd: absolutePath.optional(),
  timeoutSeconds: z.number().int().min(1).max(86_400).default(600),
  /** Runs of this factory that may execute at the same time. */
  concurrency: z.number().int().min(1).max(32).default(1),
  shell: z.boolean().default(false),
});

/** `http`: POSTs the run input to a URL; retries 5xx, 408, 429 and network errors with backoff. */
export const httpExecutorSchema = z.strictObject({
  kind: z.literal('http'),
  url: z
    .string()
    .max(4096, 'must be at most 4096 characters')
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: 'must be an http:// or https:// URL',
    })
    // fetch refuses them, so every run would fail; and the URL is shown to every reader.
    .refine(
      (value) =>
        !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''),
      {
        message: 'must not contain a user name or password',
      },
    ),
  /** Attempts in all, the first included. */
  maxAttempts: z.number().int().min(1).max(10).default(5),
  /** Wait before the second attempt; it doubles after each retry (capped at 5 minutes). */
  backoffSeconds: z.number().min(0).max(300).default(2),
  /** Per attempt. */
  timeoutSeconds: z.number().int().min(1).max(3600).default(30),
  concurrency: z.number().int().min(1).max(32).default(4),
});

export const EXECUTOR_KINDS = ['record', 'command', 'http'] as const;

export const executorSchema = z.discriminatedUnion(
  'kind',
  [recordExecutorSchema, commandExecutorSchema, httpExecutorSchema],
  { error: () => `must be an executor whose "kind" is one of: ${EXECUTOR_KINDS.join(', ')}` },
);
export type ExecutorConfig = z.infer<typeof executorSchema>;
export type CommandExecutorConfig = z.infer<typeof commandExecutorSchema>;
export type HttpExecutorConfig = z.infer<typeof httpExecutorSchema>;

const factoryExecutorSchema = z.object({
  factory: factoryIdSchema,
  executor: executorSchema,
  /** `command` runs get HOOKPORT_MCP_URL and a view token that lives as long as the run (§21). */
  mcpForRuns: z.boolean(),
});

export const executorMethods = {
  'factories.executor': method({
    role: 'view',
    summary: "How a factory's runs execute (record, command or http)",
    http: { method: 'GET', path: '/api/factories/:id/executor' },
    input: z.object({ id: factoryIdSchema }),
    output: factoryExecutorSchema,
  }),
  'factories.update': method({
    role: 'manage',
    summary:
      'Set the executor of a factory, or whether its command runs may search the relay over MCP; ' +
      'runs already running keep what they started with',
    http: { method: 'PATCH', path: '/api/factories/:id' },
    input: z
      .strictObject({
        id: factoryIdSchema,
        executor: executorSchema.optional(),
        mcpForRuns: z.boolean({ error: () => 'must be true or false' }).optional(),
      })
      .refine((input) => input.executor !== undefined || input.mcpForRuns !== undefined, {
        message: 'give executor, mcpForRuns or both',
      }),
    output: factoryExecutorSchema,
  }),
};
