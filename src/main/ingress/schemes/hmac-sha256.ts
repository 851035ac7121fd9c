import { hmacSha256 as provider } from '../../../shared/providers/hmac-sha256.js';
import type { GenericHmacOptions } from '../../../shared/signature-schemes.js';
import type { SignatureScheme } from './scheme.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { requireHeader, withoutPrefix } from './headers.js';
import { SigningError } from './verification.js';
import { genericSummary } from './summaries/summary-text.js';

/**
 * The generic scheme, for senders with no preset: HMAC-SHA256 of the raw body keyed with the
 * secret's UTF-8 bytes, in the header, encoding and prefix the webhook's options name.
 * No timestamp, no delivery header.
 */

const NO_OPTIONS = 'hmac-sha256 webhook has no signature settings (header, encoding, prefix)';

function schemeFor(options: GenericHmacOptions): SignatureScheme {
  return defineHmacScheme({
    provider,
    summarize: genericSummary,
    encoding: options.encoding,
    toleranceSeconds: null,
    read: ({ headers, body }) => ({
      candidates: [
        withoutPrefix(requireHeader(headers, options.header), options.prefix, options.header),
      ],
      content: [body],
      timestamp: null,
    }),
    write: ({ body, sign }) => ({ [options.header]: options.prefix + sign([body]) }),
  });
}

export const hmacSha256: SignatureScheme = {
  name: provider.name,
  deliveryIdHeader: null,
  // No shape of its own: the generic rule.
  summarize: genericSummary,
  verify: (input) =>
    input.options === null
      ? { ok: false, reason: NO_OPTIONS }
      : schemeFor(input.options).verify(input),
  sign: (input) => {
    if (input.options === null) throw new SigningError(NO_OPTIONS);
    return schemeFor(input.options).sign(input);
  },
};
