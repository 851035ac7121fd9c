import { z } from 'zod';
import { deliveryIdSchema } from './common.js';
import { method } from './define.js';

/** How many deliveries one bulk replay may name. */
export const REPLAY_MANY_MAX = 500;

export const replayMethods = {
  'deliveries.replay': method({
    role: 'manage',
    summary:
      "Replay: re-evaluate an accepted delivery's stored payload against today's automations, " +
      'as a new log entry linked to it (the duplicate check is skipped on purpose)',
    http: { method: 'POST', path: '/api/deliveries/:id/replay' },
    input: z.object({ id: deliveryIdSchema }),
    output: z.object({
      /** The new log entry (its `replayOf` names the original). */
      delivery_id: z.string(),
      /** IDs of the runs it queued; empty when no automation matches today. */
      runs: z.array(z.string()),
    }),
  }),
  'deliveries.replayMany': method({
    role: 'manage',
    summary:
      'Replay a selection of accepted deliveries (at most 500), in the order given; refused as a ' +
      'whole, naming the first delivery that cannot be replayed',
    http: { method: 'POST', path: '/api/deliveries/replay' },
    input: z.strictObject({
      ids: z
        .array(deliveryIdSchema)
        .min(1, 'must name at least one delivery')
        .max(REPLAY_MANY_MAX, `at most ${REPLAY_MANY_MAX} deliveries at a time`)
        .refine((ids) => new Set(ids).size === ids.length, {
          message: 'must not name a delivery twice',
        }),
    }),
    output: z.object({
      /** One per ID given, in the same order. */
      items: z.array(
        z.object({ id: z.string(), delivery_id: z.string(), runs: z.array(z.string()) }),
      ),
    }),
  }),
};
