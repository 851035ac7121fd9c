import { z } from 'zod';
import { deliverySchema } from './deliveries.js';

/** Pushed to the UI (server-sent events over HTTP, IPC events in the desktop app). */
export const relayEventSchema = z.discriminatedUnion('type', [
  /** A new log entry, exactly as `deliveries.list` shows it, so a live list needs no read. */
  z.object({ type: z.literal('delivery'), delivery: deliverySchema }),
  z.object({
    type: z.literal('run'),
    run: z.object({
      id: z.string(),
      automationId: z.string(),
      deliveryId: z.string(),
      status: z.string(),
    }),
  }),
  /** A forward attempt was recorded (from the UI, the API or `hookport forward`). */
  z.object({
    type: z.literal('attempt'),
    attempt: z.object({
      id: z.string(),
      deliveryId: z.string(),
      webhookUid: z.string(),
      status: z.number().nullable(),
    }),
  }),
  /** A running command printed more: `runs.get` now shows it (at most a few a second). */
  z.object({ type: z.literal('run-output'), runId: z.string() }),
  /** A provider link's recovery asked for `asked` deliveries; they arrive as ordinary deliveries. */
  z.object({
    type: z.literal('recovered'),
    webhookUid: z.string(),
    asked: z.number().int(),
  }),
  z.object({
    type: z.literal('changed'),
    resource: z.enum(['webhooks', 'automations', 'secrets', 'settings', 'tokens', 'alarms']),
  }),
]);
export type RelayEvent = z.infer<typeof relayEventSchema>;
