import { isCredentialHeader, REDACTED } from './credential-headers.js';
import { secretHeaderOf } from './providers/index.js';

/**
 * "Copy as curl" for a stored delivery (PRODUCT.md §13): the same request against the relay,
 * with every credential as a shell variable to set first (the relay never stored its value) and
 * the body inline, or from a file when it is large.
 */

/** Bodies longer than this go in a file: a terminal is no place for a 256 KB line. */
export const INLINE_BODY_MAX_BYTES = 4096;

/** Transport headers curl writes itself (or that describe this hop only). */
const TRANSPORT_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'proxy-connection',
]);

export interface CurlInput {
  /** The webhook's ingress URL as the API shows it (a URL token as `{token}`). */
  ingressUrl: string;
  authMode: 'token' | 'url_token' | 'signature';
  signatureScheme: string | null;
  /** The generic HMAC webhook's own signature header, if any. */
  hmacHeader: string | null;
  /** The stored request target: only its query string is used (the host may differ). */
  path: string;
  headers: ReadonlyArray<readonly [string, string]>;
  /** The stored body as text; null when none is stored (rejected and duplicate entries). */
  body: string | null;
  /** The file the body is read from when it is not inline. */
  bodyFile: string;
}

export interface CurlCommand {
  text: string;
  /** Shell variables the command reads, to be set before running it. */
  variables: string[];
  /** Whether the body must be saved to `bodyFile` first. */
  bodyInFile: boolean;
}

/** POSIX shell single quotes: everything literal, a quote written as '\''. */
export const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** `X-Hub-Signature-256` → `X_HUB_SIGNATURE_256`. */
const variableFor = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/** The value a credential header gets, as a shell word with its variable. */
function credentialValue(name: string, input: CurlInput): { word: string; variable: string } {
  const lower = name.toLowerCase();
  if (lower === 'authorization' && input.authMode === 'token') {
    return { word: `${shellQuote('Authorization: Bearer ')}"$SECRET"`, variable: 'SECRET' };
  }
  if (lower === secretHeaderOf(input.signatureScheme)) {
    return { word: `${shellQuote(`${name}: `)}"$SECRET"`, variable: 'SECRET' };
  }
  const variable = variableFor(name);
  return { word: `${shellQuote(`${name}: `)}"$${variable}"`, variable };
}

function urlWord(input: CurlInput): { word: string; variables: string[] } {
  const query = input.path.includes('?') ? input.path.slice(input.path.indexOf('?')) : '';
  const [before, after] = input.ingressUrl.split('{token}');
  if (after === undefined) return { word: shellQuote(input.ingressUrl + query), variables: [] };
  return {
    word: `${shellQuote(before!)}"$TOKEN"${shellQuote(after + query)}`,
    variables: ['TOKEN'],
  };
}

function bytesOf(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function curlCommand(input: CurlInput): CurlCommand {
  const url = urlWord(input);
  const variables = new Set(url.variables);
  const lines = [`curl -i -X POST ${url.word}`];
  const extra = input.hmacHeader?.toLowerCase() ?? null;
  for (const [name, value] of input.headers) {
    if (TRANSPORT_HEADERS.has(name.toLowerCase())) continue;
    if (value === REDACTED && isCredentialHeader(name, extra)) {
      const credential = credentialValue(name, input);
      variables.add(credential.variable);
      lines.push(`-H ${credential.word}`);
    } else {
      lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
    }
  }
  const bodyInFile = input.body === null || bytesOf(input.body) > INLINE_BODY_MAX_BYTES;
  lines.push(
    bodyInFile
      ? `--data-binary ${shellQuote(`@${input.bodyFile}`)}`
      : `--data-binary ${shellQuote(input.body!)}`,
  );

  const notes: string[] = [];
  if (variables.size > 0) {
    notes.push(`# Set ${[...variables].join(', ')} first: the relay never stores credentials.`);
  }
  if (input.authMode === 'signature' && secretHeaderOf(input.signatureScheme) === null) {
    notes.push(
      '# A signature covers the body (and often the time): sign it again, e.g. with hookport send --scheme.',
    );
  }
  if (input.body === null) {
    notes.push(`# The relay keeps no body for this entry: put the body in ${input.bodyFile}.`);
  } else if (bodyInFile) {
    notes.push(`# Save the payload as ${input.bodyFile} first (Download payload).`);
  }
  return {
    text: [...notes, lines.join(' \\\n  ')].join('\n'),
    variables: [...variables],
    bodyInFile,
  };
}
