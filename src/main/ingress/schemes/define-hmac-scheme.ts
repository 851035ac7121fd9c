import { createHash } from 'node:crypto';
import type { GenericHmacOptions, SignatureSchemeName } from '../../../shared/signature-schemes.js';
import type { ProviderDescription } from '../../../shared/providers/index.js';
import type {
  ProviderParts,
  SignatureScheme,
  SignInput,
  Verification,
  VerifyInput,
} from './scheme.js';
import { optionalHeader } from './headers.js';
import {
  anyCandidateMatches,
  hmacSha256,
  type DigestEncoding,
  type SignedContent,
} from './hmac.js';
import { assertWithinTolerance, formatUnixSeconds } from './timestamps.js';
import { fail, requireSecret, SigningError, toVerdict, VerificationError } from './verification.js';

/** What a scheme reads from one request. */
export interface SignedRequest {
  /** Signatures the request carries; one match is enough (several appear during a secret roll). */
  candidates: readonly string[];
  /** What the provider signed, rebuilt from the request. */
  content: SignedContent;
  /** The signed timestamp as sent (already checked by parseUnixSeconds), or null if none is signed. */
  timestamp: string | null;
  /** Set when the scheme takes the delivery ID from its signed content rather than a plain header. */
  deliveryId?: string;
}

/** What `write` gets to produce the provider's headers. */
export interface SigningContext {
  body: Buffer;
  /** Seconds since the epoch, formatted as providers send it. */
  timestamp: string;
  id: string;
  options: GenericHmacOptions | null;
  /** HMAC-SHA256 of `content` with the webhook's key, in the scheme's encoding. */
  sign: (content: SignedContent) => string;
}

/** One HMAC scheme, described: where the signature is, what is signed, how it is encoded. */
export interface HmacSchemeDefinition extends ProviderParts {
  /** Its name and delivery header (spelled as the provider documents it; null if none). */
  provider: ProviderDescription<SignatureSchemeName>;
  encoding: DigestEncoding;
  /** How far the signed timestamp may be from now, either way; null for schemes without one. */
  toleranceSeconds: number | null;
  /** The HMAC key; default: the secret's UTF-8 bytes. Throws VerificationError for an unusable secret. */
  key?: (secret: string) => Buffer;
  /** Reads the signature headers; throws VerificationError when they are missing or malformed. */
  read: (input: VerifyInput) => SignedRequest;
  /** The headers the provider sends. The delivery header is added from `id`. */
  write: (context: SigningContext) => Record<string, string>;
  /** A check that needs an authenticated body; runs only once the signature matched. */
  checkAuthenticatedBody?: (input: VerifyInput) => void;
  /** The signed content holds a timestamp that the body check enforces (Linear's body field). */
  timestampInBody?: true;
}

function utf8Key(secret: string): Buffer {
  return Buffer.from(secret, 'utf8');
}

export function defineHmacScheme(definition: HmacSchemeDefinition): SignatureScheme {
  const { deliveryIdHeader } = definition.provider;
  const deriveKey = (secret: string): Buffer => {
    requireSecret(secret);
    return (definition.key ?? utf8Key)(secret);
  };

  // Only a signature bound to a time window can be recognised as replayed: without one, the same
  // bytes again may be a provider's genuine resend.
  const signsTimestamp =
    definition.toleranceSeconds !== null || definition.timestampInBody === true;

  function verify(input: VerifyInput): Verification {
    let replayKey: string | undefined;
    const verdict = toVerdict(() => {
      const key = deriveKey(input.secret);
      const request = definition.read(input);
      const deliveryId =
        request.deliveryId ??
        (deliveryIdHeader === null ? null : optionalHeader(input.headers, deliveryIdHeader));
      if (request.candidates.length === 0) fail('no signature in the request');

      const expected = hmacSha256(key, request.content, definition.encoding);
      // Hex is case-insensitive; base64 is not.
      const candidates =
        definition.encoding === 'hex'
          ? request.candidates.map((candidate) => candidate.toLowerCase())
          : request.candidates;
      if (!anyCandidateMatches(candidates, expected)) fail('signature mismatch');

      if (definition.toleranceSeconds !== null) {
        if (request.timestamp === null) fail('no signed timestamp');
        assertWithinTolerance(Number(request.timestamp), input.now, definition.toleranceSeconds);
      }
      definition.checkAuthenticatedBody?.(input);
      if (signsTimestamp) replayKey = createHash('sha256').update(expected).digest('hex');
      return deliveryId;
    });
    return verdict.ok && replayKey !== undefined ? { ...verdict, replayKey } : verdict;
  }

  function sign(input: SignInput): Record<string, string> {
    let key: Buffer;
    try {
      key = deriveKey(input.secret);
    } catch (error) {
      if (error instanceof VerificationError) throw new SigningError(error.message);
      throw error;
    }
    const headers = definition.write({
      body: input.body,
      timestamp: formatUnixSeconds(input.timestamp),
      id: input.id,
      options: input.options,
      sign: (content) => hmacSha256(key, content, definition.encoding),
    });
    return deliveryIdHeader === null ? headers : { [deliveryIdHeader]: input.id, ...headers };
  }

  return {
    name: definition.provider.name,
    deliveryIdHeader: deliveryIdHeader?.toLowerCase() ?? null,
    verify,
    sign,
    summarize: definition.summarize,
    ...(definition.eventHeaders && { eventHeaders: definition.eventHeaders }),
    ...(definition.prepareBody && { prepareBody: definition.prepareBody }),
    ...(definition.resendAs && { resendAs: definition.resendAs }),
    ...(definition.newSecret && { newSecret: definition.newSecret }),
    ...(definition.newDeliveryId && { newDeliveryId: definition.newDeliveryId }),
  };
}
