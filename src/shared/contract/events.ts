import { z } from 'zod';
import { DELIVERY_LABELS } from '../labels.js';

/** Pushed to the UI (server-sent events over HTTP, IPC events in the desktop app). */
export const relayEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('delivery'),
    delivery: z.object({
      id: z.string(),
      webhookUid: z.string(),
      label: z.enum(DELIVERY_LABELS),
      receivedAt: z.string(),
      runIds: z.array(z.string()),
    }),
  }),
  z.object({
    type: z.literal('run'),
    run: z.object({
      id: z.string(),
      automationId: z.string(),
      deliveryId: z.string(),
      status: z.string(),
    }),
  }),
  z.object({
    type: z.literal('changed'),
    resource: z.enum(['webhooks', 'automations', 'secrets', 'settings', 'tokens']),
  }),
]);
export type RelayEvent = z.infer<typeof relayEventSchema>;
