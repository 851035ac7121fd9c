import type { MethodOutput } from '../../../shared/contract/index.js';

export type { Webhook } from '../../../shared/contract/webhooks.js';
export type { Delivery, WebhookActivity } from '../../../shared/contract/deliveries.js';
export type { Automation } from '../../../shared/contract/automations.js';
export type { DeliveryLabel } from '../../../shared/labels.js';
export type DeliveryEntry = MethodOutput<'deliveries.get'>;
export type IdentitySource = NonNullable<DeliveryEntry['identitySource']>;
export type CreatedWebhook = MethodOutput<'webhooks.create'>;
