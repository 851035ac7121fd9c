import { z } from 'zod';
import { isoTime } from './common.js';
import { automationIdSchema } from './automations.js';
import { method } from './define.js';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'interrupted'] as const;
export const runStatusSchema = z.enum(RUN_STATUSES, {
  error: () => `must be one of: ${RUN_STATUSES.join(', ')}`,
});
export type RunStatus = z.infer<typeof runStatusSchema>;

export const RUN_ID_PATTERN = /^run_[0-9A-HJKMNP-TV-Z]{26}$/;
export const runIdSchema = z
  .string()
  .regex(RUN_ID_PATTERN, 'must be a run id (run_ and 26 characters)');

export const runSchema = z.object({
  id: z.string(),
  automationId: z.string(),
  /** null once the automation was deleted. */
  automationName: z.string().nullable(),
  deliveryId: z.string(),
  webhookUid: z.string(),
  webhookName: z.string().nullable(),
  status: runStatusSchema,
  createdAt: isoTime,
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  /** The command's exit code (command executor only). */
  exitCode: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The run this one re-runs by hand. */
  rerunOf: z.string().nullable(),
  /** Runs that re-run this one, oldest first; a run is re-run at most once. */
  reruns: z.array(z.string()),
  /** The last HTTP status the executor's URL answered (http executor only). */
  httpStatus: z.number().int().nullable(),
  /** Its delivery's event type (§13): `pull_request.opened`; null when unknown or pruned. */
  eventType: z.string().nullable(),
});
export type Run = z.infer<typeof runSchema>;

export const runDetailSchema = runSchema.extend({
  /** PROMPT.md: the automation prompt, then the platform envelope. */
  input: z.string(),
  /** event-payload.json as text; null once the delivery was pruned. */
  payload: z.string().nullable(),
  /** Captured output (bounded): the command's stdout and stderr, or the HTTP response. */
  output: z.string().nullable(),
});
export type RunDetail = z.infer<typeof runDetailSchema>;

export const RUN_PAGE_MAX = 500;
/** How many runs one bulk re-run re-runs. */
export const RERUN_MANY_MAX = 500;

/** A time given as ISO 8601 or epoch milliseconds, read as epoch milliseconds. */
export const timeInputSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const ms = typeof value === 'number' || /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms) || ms < 0) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 time or epoch milliseconds' });
    return z.NEVER;
  }
  return ms;
});

export const runMethods = {
  'runs.list': method({
    role: 'view',
    summary: 'Runs, newest first, optionally of one automation or in one status',
    http: { method: 'GET', path: '/api/runs' },
    input: z.object({
      automation: automationIdSchema.optional(),
      status: runStatusSchema.optional(),
      limit: z.coerce.number().int().min(1).max(RUN_PAGE_MAX).default(50),
      before: runIdSchema.optional(),
    }),
    output: z.object({ items: z.array(runSchema), nextBefore: z.string().nullable() }),
  }),
  'runs.get': method({
    role: 'view',
    summary: 'One run with its input, payload and output',
    http: { method: 'GET', path: '/api/runs/:id' },
    input: z.object({ id: runIdSchema }),
    output: runDetailSchema,
  }),
  'runs.rerun': method({
    role: 'manage',
    summary: 'Re-run a failed or interrupted run by hand, as a new run with the same input',
    http: { method: 'POST', path: '/api/runs/:id/rerun', status: 201 },
    input: z.object({ id: runIdSchema }),
    output: runSchema,
  }),
  'runs.rerunMany': method({
    role: 'manage',
    summary:
      'Re-run every failed (or interrupted) run not re-run yet, of one automation or all, ' +
      'optionally only those queued since a time; at most 500 at a time',
    http: { method: 'POST', path: '/api/runs/rerun' },
    input: z.strictObject({
      status: z.enum(['failed', 'interrupted'], {
        error: () => 'must be "failed" or "interrupted"',
      }),
      automationId: automationIdSchema.optional(),
      /** ISO 8601 or epoch milliseconds: only runs queued at or after it. */
      since: timeInputSchema.optional(),
      /** Count what would be re-run, change nothing (for the confirmation). */
      dryRun: z.boolean().default(false),
    }),
    output: z.object({
      /** How many runs were re-run (or would be, on a dry run). */
      count: z.number().int(),
      /** The new runs, each with `rerunOf` naming the run it repeats; empty on a dry run. */
      runs: z.array(runSchema),
      /** Runs that matched but cannot be re-run (automation deleted, payload pruned). */
      skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
      /** Matching runs left for another call (over the 500 of this one). */
      remaining: z.number().int(),
    }),
  }),
};
