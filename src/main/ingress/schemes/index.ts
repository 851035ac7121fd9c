import type { SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { SignatureScheme } from './scheme.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { hmacSha256 } from './hmac-sha256.js';
import { linear } from './linear.js';
import { paddle } from './paddle.js';
import { shopify } from './shopify.js';
import { slack } from './slack.js';
import { standardWebhooks } from './standard-webhooks.js';
import { stripe } from './stripe.js';

export type {
  DistinctHeaders,
  SignatureScheme,
  SignInput,
  Verification,
  VerifyInput,
} from './scheme.js';
export { SigningError, VerificationError } from './verification.js';

/** Every scheme a `signature` webhook may name (PRODUCT.md §4), by name. */
export const signatureSchemes: Readonly<Record<SignatureSchemeName, SignatureScheme>> = {
  'standard-webhooks': standardWebhooks,
  stripe,
  github,
  slack,
  shopify,
  linear,
  gitlab,
  paddle,
  'hmac-sha256': hmacSha256,
};

export function getSignatureScheme(name: SignatureSchemeName): SignatureScheme {
  return signatureSchemes[name];
}
