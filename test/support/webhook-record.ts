import { DEFAULT_FACTORY_ID } from '../../src/main/store/factories.js';
import type { NewWebhook } from '../../src/main/store/webhooks.js';

/** A token-mode webhook row as the store takes it, for tests that write the store directly. */
export const webhookRecord = (uid: string, name: string): NewWebhook => ({
  uid,
  factoryId: DEFAULT_FACTORY_ID,
  name,
  authMode: 'token',
  signatureScheme: null,
  signatureOptions: null,
  secretName: `webhook-${name}`,
  deliveryIdHeader: null,
  eventTypePath: null,
  enabled: true,
  createdAt: 1,
});
