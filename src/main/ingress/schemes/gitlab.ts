import { constantTimeEqual } from '../../crypto/constant-time.js';
import type { SignatureScheme } from './scheme.js';
import { optionalHeader, requireHeader } from './headers.js';
import { fail, requireSecret, SigningError, toVerdict } from './verification.js';

/**
 * GitLab (docs.gitlab.com, "Webhooks" → secret token): the secret is sent as is in
 * `X-Gitlab-Token`. Nothing is signed: the token proves the sender, not the body, and there is
 * no timestamp. Delivery: `X-Gitlab-Event-UUID`.
 */

const TOKEN_HEADER = 'X-Gitlab-Token';
const DELIVERY_HEADER = 'X-Gitlab-Event-UUID';

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
    return { [TOKEN_HEADER]: secret, [DELIVERY_HEADER]: id };
  },
};
