import type { GenericHmacOptions, SignatureSchemeName } from '../../../shared/signature-schemes.js';

/**
 * Headers as Node's `req.headersDistinct` gives them: lower-case names, every occurrence kept,
 * so a verifier can refuse a repeated signature header instead of reading a comma-joined one.
 */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

import type { HeaderReader } from '../../../shared/providers/index.js';

export type { HeaderReader };

/** What a verifier sees: the headers and the exact raw body bytes, never a re-serialized body. */
export interface VerifyInput {
  headers: DistinctHeaders;
  body: Buffer;
  secret: string;
  /** Milliseconds since the epoch, injected so tests control the clock. */
  now: number;
  options: GenericHmacOptions | null;
}

export type Verification =
  | {
      ok: true;
      deliveryId: string | null;
      /**
       * For schemes that sign a timestamp: a SHA-256 of the signature the request's signed content
       * calls for (computed, not as sent, so that re-cased hex or extra candidates make no new
       * key). A captured request replayed inside the tolerance carries the same one.
       */
      replayKey?: string;
    }
  | { ok: false; reason: string };

export interface SignInput {
  body: Buffer;
  secret: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Delivery ID to put in the scheme's delivery header, where it has one. */
  id: string;
  options: GenericHmacOptions | null;
}

/** What a provider's body rewrite gets: the bytes about to be signed, and when. */
export interface PrepareBodyInput {
  body: Buffer;
  nowMs: number;
  /** `hookport send --timestamp`: the Unix seconds to claim instead of now; null for now. */
  timestampSeconds: number | null;
  /** `send` sends a sample file; `forward` re-sends a stored delivery, whose time has passed. */
  purpose: 'send' | 'forward';
}

export interface PreparedBody {
  body: Buffer;
  /** What the sender should know about the change (printed, or shown on the attempt). */
  note: string | null;
}

/**
 * One provider, as the relay runs it (its description is src/shared/providers/<name>.ts):
 * verify as the relay does, sign as the provider does (for `hookport send` and Send to…), the
 * headers it names an event with, a body fix-up before signing, and a delivery's summary.
 */
export interface SignatureScheme {
  name: SignatureSchemeName;
  /** Header carrying the provider's own delivery ID (identity step 2), lower-case; null if none. */
  deliveryIdHeader: string | null;
  verify(input: VerifyInput): Verification;
  sign(input: SignInput): Record<string, string>;
  /**
   * A delivery's one-line summary (PRODUCT.md §22) from its event type and parsed payload; null
   * when nothing in it says more than nothing. Never throws: any JSON value is a payload.
   */
  summarize: (eventType: string | null, payload: unknown) => string | null;
  /**
   * The headers the provider sends for `event`, spelled as it sends them; only for providers
   * that name the event in a header. Throws SigningError for a name it would never send.
   */
  eventHeaders?: (event: string) => Record<string, string>;
  /**
   * The body as the provider would send it now (Linear signs a timestamp inside the body).
   * Throws SigningError when the request cannot be made as asked.
   */
  prepareBody?: (input: PrepareBodyInput) => PreparedBody;
  /**
   * Signing a stored delivery again (Send to…): the provider delivery ID it carried, and the
   * signed headers under the names it came with (Svix's `svix-*`). Default: the value of the
   * delivery header, and the names as signed.
   */
  resendAs?: (stored: HeaderReader) => ResendAs;
  /** A secret the relay makes when none is given, where the provider lets the relay choose. */
  newSecret?: () => string;
  /** A delivery ID as the provider makes them (`hookport send`); default: a UUID. */
  newDeliveryId?: () => string;
}

export interface ResendAs {
  deliveryId: string | null;
  headers: (signed: Record<string, string>) => Record<string, string>;
}

/** The parts a provider adds beside verifying and signing. */
export type ProviderParts = Pick<
  SignatureScheme,
  'summarize' | 'eventHeaders' | 'prepareBody' | 'resendAs' | 'newSecret' | 'newDeliveryId'
>;
