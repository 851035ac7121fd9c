import type { GenericHmacOptions, SignatureSchemeName } from '../../../shared/signature-schemes.js';

/**
 * Headers as Node's `req.headersDistinct` gives them: lower-case names, every occurrence kept,
 * so a verifier can refuse a repeated signature header instead of reading a comma-joined one.
 */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

/** The first value of a request header, by its lower-case name; undefined when it was not sent. */
export type HeaderReader = (lowerCaseName: string) => string | undefined;

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

/** One provider's scheme: verify as the relay does, sign as the provider does (for `hookport send`). */
export interface SignatureScheme {
  name: SignatureSchemeName;
  /** Header carrying the provider's own delivery ID (identity step 2), lower-case; null if none. */
  deliveryIdHeader: string | null;
  verify(input: VerifyInput): Verification;
  sign(input: SignInput): Record<string, string>;
}
