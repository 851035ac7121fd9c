import { readFile } from 'node:fs/promises';
import { SIGNATURE_SCHEMES } from '../../shared/signature-schemes.js';
import { buildDelivery } from './outgoing-delivery.js';
import { postOnce, type PostResult } from './post-once.js';
import { parseSendArgs } from './send-args.js';
import { UsageError } from './usage.js';

export const SEND_HELP = `Usage:
  hookport send <ingress-url> --body FILE [--secret S --scheme NAME] [--id ID]
                [--event NAME] [--header NAME:VALUE]... [--timestamp SECONDS]
                [--hmac-header NAME --hmac-encoding hex|base64 --hmac-prefix P]

Sends FILE's bytes exactly ("-" reads standard input) as one POST, and prints the status and the
delivery_id (or the error body) on one line. Exit 0 on 2xx, 1 otherwise, 2 on a wrong command line.

  --secret S        without --scheme: sent as "Authorization: Bearer S" (token mode);
                    a url_token URL carries its token already
  --scheme NAME     sign as the provider does, with S as its signing secret:
                    ${SIGNATURE_SCHEMES.join(', ')}
  --id ID           the scheme's delivery header (X-GitHub-Delivery, webhook-id, ...), or
                    X-Service-Delivery-Id when it has none; random by default where the
                    provider always sends one
  --event NAME      the provider's event headers, as it sends them: github X-GitHub-Event
                    (pull_request; the action is the body's "action"); shopify X-Shopify-Topic
                    (orders/paid) with X-Shopify-Shop-Domain and X-Shopify-API-Version; gitlab
                    X-Gitlab-Event (Push Hook)
  --timestamp SECS  sign this Unix time instead of now (a stale or future one, on purpose)
  --header N:V      an extra header; replaces one of the same name, repeat it to send two
  --hmac-*          the hmac-sha256 scheme's header, encoding (default hex) and prefix

linear: a JSON object without "webhookTimestamp" gets it (milliseconds) before its closing brace,
as Linear sends it; the bytes sent are the bytes signed. Redirects are reported, not followed.
`;

/** The body file's bytes, exactly; `-` is standard input. */
async function readBodySource(source: string): Promise<Buffer> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(source);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--body: cannot read "${source}" (${code})`);
  }
}

/** One line: `202 dlv_…`, or the status and the error body with line breaks folded. */
export function describeResult(result: PostResult): string {
  if (result.location !== null && result.status >= 300 && result.status < 400) {
    return `${result.status} redirect to ${result.location} (not followed)`;
  }
  if (result.status >= 200 && result.status < 300) {
    const deliveryId = deliveryIdOf(result.body);
    if (deliveryId !== null) return `${result.status} ${deliveryId}`;
  }
  const text = result.body.replace(/\s+/g, ' ').trim();
  return `${result.status} ${text === '' ? '(empty body)' : text.slice(0, 2000)}`;
}

function deliveryIdOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null && 'delivery_id' in parsed) {
      const id = parsed.delivery_id;
      return typeof id === 'string' ? id : null;
    }
  } catch {
    // Not the relay's JSON: printed as text.
  }
  return null;
}

/** `hookport send`: what a provider would send, signed as it would sign it. Never prints the secret. */
export async function send(args: string[]): Promise<void> {
  const parsed = parseSendArgs(args);
  if (parsed === 'help') {
    console.log(SEND_HELP);
    return;
  }
  const body = await readBodySource(parsed.bodySource);
  const delivery = buildDelivery({ ...parsed, body }, Date.now());
  for (const note of delivery.notes) console.error(`hookport: ${note}`);
  const result = await postOnce(parsed.url, delivery.headers, delivery.body);
  console.log(describeResult(result));
  if (result.status < 200 || result.status >= 300) process.exitCode = 1;
}
