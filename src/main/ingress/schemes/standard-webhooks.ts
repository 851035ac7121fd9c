import { standardWebhooks as provider } from '../../../shared/providers/standard-webhooks.js';
import { randomBytes } from 'node:crypto';
import type { DistinctHeaders, HeaderReader, ResendAs } from './scheme.js';
import { defineHmacScheme } from './define-hmac-scheme.js';
import { hasHeader, requireHeader, requireSignatures } from './headers.js';
import type { SignedContent } from './hmac.js';
import { parseUnixSeconds } from './timestamps.js';
import { fail } from './verification.js';
import { genericSummary } from './summaries/summary-text.js';

/**
 * Standard Webhooks (https://www.standardwebhooks.com, spec/standard-webhooks.md), which Svix
 * sends under `svix-*` names. HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed with the
 * base64-decoded secret; the signature header holds space-separated `v1,<base64>` entries.
 */

/** The spec asks for "some allowable tolerance"; PRODUCT.md §4 and the reference libraries use 5 minutes. */
export const TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_VERSION = 'v1,';
/** Standard base64, padding optional (Svix secrets such as 32 chars for 24 bytes need none). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/** A secret the relay makes: `whsec_` + base64 of 24 random bytes (PRODUCT.md §4). */
const newSecret = (): string => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

const HEADER_FAMILIES = [
  { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' },
  { id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' },
] as const;
const [STANDARD_HEADERS, SVIX_HEADERS] = HEADER_FAMILIES;

function headerFamily(headers: DistinctHeaders): (typeof HEADER_FAMILIES)[number] {
  return !hasHeader(headers, STANDARD_HEADERS.signature) &&
    hasHeader(headers, SVIX_HEADERS.signature)
    ? SVIX_HEADERS
    : STANDARD_HEADERS;
}

function keyFromSecret(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!BASE64.test(encoded)) fail('secret is not whsec_ followed by base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) fail('no signing secret configured');
  return key;
}

const signedContent = (id: string, timestamp: string, body: Buffer): SignedContent => [
  `${id}.${timestamp}.`,
  body,
];

/** A stored delivery keeps its ID, and a Svix one its `svix-*` names (its handler reads those). */
function resendAs(stored: HeaderReader): ResendAs {
  const svix = stored(SVIX_HEADERS.id) !== undefined && stored(STANDARD_HEADERS.id) === undefined;
  return {
    deliveryId: stored(STANDARD_HEADERS.id) ?? stored(SVIX_HEADERS.id) ?? null,
    headers: (signed) =>
      svix
        ? Object.fromEntries(
            Object.entries(signed).map(([name, value]) => [
              name.replace(/^webhook-/, 'svix-'),
              value,
            ]),
          )
        : signed,
  };
}

export const standardWebhooks = defineHmacScheme({
  provider,
  summarize: genericSummary,
  resendAs,
  newSecret,
  // Svix sends `msg_` IDs.
  newDeliveryId: () => `msg_${randomBytes(18).toString('base64url')}`,
  encoding: 'base64',
  toleranceSeconds: TOLERANCE_SECONDS,
  key: keyFromSecret,
  read({ headers, body }) {
    const names = headerFamily(headers);
    const id = requireHeader(headers, names.id);
    const timestamp = parseUnixSeconds(
      requireHeader(headers, names.timestamp),
      `${names.timestamp} header`,
    );
    const entries = requireHeader(headers, names.signature).split(' ');
    const candidates = entries
      .filter((entry) => entry.startsWith(SIGNATURE_VERSION))
      .map((entry) => entry.slice(SIGNATURE_VERSION.length));
    return {
      candidates: requireSignatures(candidates, 'v1', names.signature),
      content: signedContent(id, timestamp, body),
      timestamp,
      deliveryId: id,
    };
  },
  write: ({ id, timestamp, body, sign }) => ({
    [STANDARD_HEADERS.id]: id,
    [STANDARD_HEADERS.timestamp]: timestamp,
    [STANDARD_HEADERS.signature]: SIGNATURE_VERSION + sign(signedContent(id, timestamp, body)),
  }),
});
