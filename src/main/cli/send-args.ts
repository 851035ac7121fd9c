import { parseCommandLine } from './command-line.js';
import {
  genericHmacOptionsSchema,
  SIGNATURE_SCHEMES,
  type GenericHmacOptions,
  type SignatureSchemeName,
} from '../../shared/signature-schemes.js';
import { PROVIDERS, takesOptions } from '../../shared/providers/index.js';
import { EVENT_HEADER_SCHEMES, eventHeaders } from '../ingress/schemes/provider-events.js';
import { SigningError } from '../ingress/schemes/verification.js';
import { UsageError } from './usage.js';

/** A `hookport send` command line, checked: everything `buildDelivery` needs but the body bytes. */
export interface SendArgs {
  url: URL;
  /** A file path, or `-` for standard input. */
  bodySource: string;
  secret: string | null;
  scheme: SignatureSchemeName | null;
  hmacOptions: GenericHmacOptions | null;
  id: string | null;
  /** Unix seconds to sign instead of now (to send a stale or future signature on purpose). */
  timestampSeconds: number | null;
  /** `--header` lines in order, as [name, value]. */
  headers: readonly (readonly [string, string])[];
  /** `--event`: the provider's event headers are added for it (§13). */
  event: string | null;
}

/** Schemes whose signature covers a timestamp (Linear's is `webhookTimestamp` in the body). */
export const TIMESTAMPED_SCHEMES: ReadonlySet<SignatureSchemeName> = new Set(
  PROVIDERS.filter((provider) => provider.signsTimestamp).map((provider) => provider.name),
);

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** What Node lets through in a header value: no CR, LF or other control characters but tab. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers that frame the request: hookport computes them from the body. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);
/** Printable ASCII, no surrounding space (HTTP trims it, so it could never arrive). */
const DELIVERY_ID = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;
const UNIX_SECONDS = /^\d{1,10}$/;

const HMAC_FLAGS = {
  header: '--hmac-header',
  encoding: '--hmac-encoding',
  prefix: '--hmac-prefix',
};

/** The checked command line, or 'help' for `hookport send --help`. */
export function parseSendArgs(args: string[]): SendArgs | 'help' {
  const { values, positionals } = parseCommandLine({
    args,
    allowPositionals: true,
    options: {
      body: { type: 'string' },
      secret: { type: 'string' },
      scheme: { type: 'string' },
      id: { type: 'string' },
      header: { type: 'string', multiple: true },
      timestamp: { type: 'string' },
      event: { type: 'string' },
      'hmac-header': { type: 'string' },
      'hmac-encoding': { type: 'string' },
      'hmac-prefix': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';

  const scheme = parseScheme(values.scheme);
  const secret = values.secret ?? null;
  if (secret === '') throw new UsageError('--secret must not be empty');
  if (scheme !== null && secret === null) {
    throw new UsageError(`--scheme ${scheme} needs --secret (the provider's signing secret)`);
  }
  return {
    url: parseUrl(positionals),
    bodySource: parseBodySource(values.body),
    secret,
    scheme,
    hmacOptions: parseHmacOptions(scheme, {
      header: values['hmac-header'],
      encoding: values['hmac-encoding'],
      prefix: values['hmac-prefix'],
    }),
    id: parseId(values.id),
    timestampSeconds: parseTimestamp(values.timestamp, scheme),
    headers: (values.header ?? []).map(parseHeader),
    event: parseEvent(values.event, scheme),
  };
}

function parseEvent(value: string | undefined, scheme: SignatureSchemeName | null): string | null {
  if (value === undefined) return null;
  const schemes = EVENT_HEADER_SCHEMES.join(', ');
  if (scheme === null) {
    throw new UsageError(
      `--event goes with --scheme ${schemes}, whose providers name the event in a header; for other senders use --header NAME:VALUE`,
    );
  }
  try {
    eventHeaders(scheme, value);
  } catch (error) {
    if (!(error instanceof SigningError)) throw error;
    throw new UsageError(`--event: ${error.message}`);
  }
  return value;
}

function parseUrl(positionals: string[]): URL {
  if (positionals.length === 0) {
    throw new UsageError('send needs the ingress URL: hookport send <ingress-url> --body FILE');
  }
  if (positionals.length > 1) {
    throw new UsageError(`send takes one <ingress-url>, not ${positionals.length} arguments`);
  }
  let url: URL | null = null;
  try {
    url = new URL(positionals[0]!);
  } catch {
    // Reported below. The text is not echoed: a url_token URL is itself a credential.
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      '<ingress-url> must be an http(s) URL such as http://127.0.0.1:8787/webhooks/w/wh_…',
    );
  }
  return url;
}

function parseBodySource(body: string | undefined): string {
  if (body === undefined || body === '') {
    throw new UsageError('--body FILE is required (the bytes to send; "-" reads standard input)');
  }
  return body;
}

function parseScheme(value: string | undefined): SignatureSchemeName | null {
  if (value === undefined) return null;
  const scheme = SIGNATURE_SCHEMES.find((name) => name === value);
  if (scheme === undefined) {
    throw new UsageError(`--scheme must be one of: ${SIGNATURE_SCHEMES.join(', ')}`);
  }
  return scheme;
}

function parseHmacOptions(
  scheme: SignatureSchemeName | null,
  flags: Record<keyof typeof HMAC_FLAGS, string | undefined>,
): GenericHmacOptions | null {
  const given = Object.values(flags).some((value) => value !== undefined);
  if (scheme === null || !takesOptions(scheme)) {
    if (given) {
      throw new UsageError(
        '--hmac-header, --hmac-encoding and --hmac-prefix only go with --scheme hmac-sha256',
      );
    }
    return null;
  }
  if (flags.header === undefined) {
    throw new UsageError(
      '--scheme hmac-sha256 needs --hmac-header NAME (the header the webhook reads)',
    );
  }
  const parsed = genericHmacOptionsSchema.safeParse(flags);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const key = issue?.path[0];
    const flag =
      typeof key === 'string' && Object.hasOwn(HMAC_FLAGS, key)
        ? HMAC_FLAGS[key as keyof typeof HMAC_FLAGS]
        : '--hmac-*';
    const message = flag === '--hmac-encoding' ? 'must be hex or base64' : issue?.message;
    throw new UsageError(`${flag} ${message ?? 'is invalid'}`);
  }
  return parsed.data;
}

function parseId(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!DELIVERY_ID.test(value)) {
    throw new UsageError(
      '--id must be 1 to 200 printable ASCII characters, without leading or trailing spaces',
    );
  }
  return value;
}

function parseTimestamp(
  value: string | undefined,
  scheme: SignatureSchemeName | null,
): number | null {
  if (value === undefined) return null;
  if (scheme === null) {
    throw new UsageError('--timestamp goes with --scheme: token mode signs no timestamp');
  }
  if (!TIMESTAMPED_SCHEMES.has(scheme)) {
    throw new UsageError(
      `--timestamp: the ${scheme} scheme signs no timestamp (schemes that do: ${[...TIMESTAMPED_SCHEMES].join(', ')})`,
    );
  }
  if (!UNIX_SECONDS.test(value)) {
    throw new UsageError(`--timestamp must be Unix seconds (1 to 10 digits), not "${value}"`);
  }
  return Number(value);
}

function parseHeader(line: string): readonly [string, string] {
  const colon = line.indexOf(':');
  const name = colon < 0 ? line : line.slice(0, colon).trim();
  if (colon < 0 || !HEADER_NAME.test(name)) {
    // The line is not echoed: it may hold a credential.
    throw new UsageError('--header must be NAME:VALUE, where NAME is an HTTP header name');
  }
  if (FRAMING_HEADERS.has(name.toLowerCase())) {
    throw new UsageError(`--header: hookport sets ${name} itself from the body`);
  }
  const value = line.slice(colon + 1).trim();
  if (!HEADER_VALUE.test(value)) {
    throw new UsageError(
      `--header ${name}: the value may not contain line breaks or control characters`,
    );
  }
  return [name, value];
}
