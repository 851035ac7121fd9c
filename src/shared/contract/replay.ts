import { z } from 'zod';
import { deliveryIdSchema } from './common.js';
import { method } from './define.js';

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
};
