import { randomUUID } from 'node:crypto';
import { constantTimeEqual } from '../../crypto/constant-time.js';
import type { SignatureScheme } from './scheme.js';
import { optionalHeader, requireHeader } from './headers.js';
import { fail, requireSecret, SigningError, toVerdict } from './verification.js';

/**
 * GitLab (docs.gitlab.com, "Webhooks" → secret token): the secret is sent as is in
 * `X-Gitlab-Token`. Nothing is signed: the token proves the sender, not the body, and there is
 * no timestamp. Delivery: `Idempotency-Key`, which GitLab keeps when it resends a delivery
 * (`X-Gitlab-Event-UUID` is new on every attempt, so a resend would run automations twice).
 */

const TOKEN_HEADER = 'X-Gitlab-Token';
const DELIVERY_HEADER = 'Idempotency-Key';
const EVENT_UUID_HEADER = 'X-Gitlab-Event-UUID';

export const gitlab: SignatureScheme = {
  name: 'gitlab',
  deliveryIdHeader: DELIVERY_HEADER.toLowerCase(),
  verify: ({ headers, secret }) =>
    toVerdict(() => {
      requireSecret(secret);
      const token = requireHeader(headers, TOKEN_HEADER);
      const deliveryId = optionalHeader(headers, DELIVERY_HEADER);
      if (!constantTimeEqual(token, secret)) fail('token mismatch');
      return deliveryId;
    }),
  sign: ({ secret, id }) => {
    if (secret === '') throw new SigningError('no signing secret configured');
    // Each attempt has its own event UUID; the idempotency key is what stays across resends.
    return { [TOKEN_HEADER]: secret, [EVENT_UUID_HEADER]: randomUUID(), [DELIVERY_HEADER]: id };
  },
};
