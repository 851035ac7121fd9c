import { DELIVERY_ID_PATTERN, WEBHOOK_UID_PATTERN } from '../../shared/contract/common.js';
import { forwardUrlSchema } from '../../shared/contract/forwarding.js';
import type { Webhook } from '../../shared/contract/webhooks.js';
import { ApiError } from '../../shared/errors.js';
import { sendsSecretItself } from '../../shared/providers/index.js';
import { signingRefusal } from '../forward/signing-policy.js';
import { AdminClient } from './admin-client.js';
import { parseCommandLine } from './command-line.js';
import { DeliveryWakeups } from './delivery-wakeups.js';
import { Forwarder } from './forwarder.js';
import { UsageError } from './usage.js';

export const FORWARD_HELP = `Usage:
  hookport forward <webhook name or uid> --to URL [--since ID | --from-now] [--no-sign]
                   [--allow-remote-signing] [--admin-url URL] [--data-dir D]

Forwards each Accepted delivery of a webhook to your own handler as it arrives, in order, one line
each: time, delivery ID, event type, → the handler's status and how long it took. Deliveries go
through the running relay, which sends the stored bytes and headers (never credentials) and, for a
signature webhook, a fresh signature made with the webhook's own secret, so the handler's own
verification passes. Runs until Ctrl-C.

Nothing is skipped: while the handler does not answer (or answers 502, 503 or 504) the same
delivery is tried again with backoff, and a forwarder started again continues after the last
delivery forwarded to that URL (the relay keeps that place, so any terminal can pick it up).

  --to URL          the handler (http or https)
  --since ID        start after this delivery instead
  --from-now        start with the next delivery, skipping what is waiting
  --no-sign         send without a signature
  --allow-remote-signing
                    sign for a handler that is not on this machine (by default signatures go
                    only to 127.0.0.1, [::1] or localhost; a GitLab token webhook never elsewhere)
  --admin-url URL   the relay's admin listener (default http://127.0.0.1:8788)
  --data-dir D      where to read admin-token (default $HOOKPORT_DATA_DIR or ~/.hookport);
                    HOOKPORT_ADMIN_TOKEN, when set, is used instead
`;

/** Before the first delivery ID: "after this" means from the very first. */
const BEFORE_EVERYTHING = 'dlv_00000000000000000000000000';

export async function findWebhook(client: AdminClient, nameOrUid: string): Promise<Webhook> {
  if (WEBHOOK_UID_PATTERN.test(nameOrUid)) {
    return client.call('webhooks.get', { uid: nameOrUid });
  }
  const { items } = await client.call('webhooks.list', {});
  const found = items.find((w) => w.name === nameOrUid);
  if (!found) {
    const names = items.map((w) => w.name).join(', ') || 'none yet';
    throw new ApiError('not_found', `No webhook named "${nameOrUid}" (webhooks: ${names}).`);
  }
  return found;
}

function parse(args: string[]) {
  const { values, positionals } = parseCommandLine({
    args,
    options: {
      to: { type: 'string' },
      since: { type: 'string' },
      'from-now': { type: 'boolean' },
      'no-sign': { type: 'boolean' },
      'allow-remote-signing': { type: 'boolean' },
      'admin-url': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) return null;
  const [webhook, ...extra] = positionals;
  if (webhook === undefined) throw new UsageError('forward: name the webhook (its name or UID).');
  if (extra.length > 0)
    throw new UsageError(`forward: one webhook at a time (got "${extra.join(' ')}" too).`);
  if (values.to === undefined)
    throw new UsageError('forward: --to URL is required (your handler).');
  const url = forwardUrlSchema.safeParse(values.to);
  if (!url.success) throw new UsageError(`forward: --to ${url.error.issues[0]!.message}.`);
  if (values.since !== undefined && values['from-now']) {
    throw new UsageError('forward: --since and --from-now say different things; give one.');
  }
  if (values.since !== undefined && !DELIVERY_ID_PATTERN.test(values.since)) {
    throw new UsageError(
      `forward: --since "${values.since}" is not a delivery ID (dlv_ and 26 characters).`,
    );
  }
  return {
    webhook,
    url: url.data,
    since: values.since,
    fromNow: values['from-now'] === true,
    sign: values['no-sign'] !== true,
    allowRemoteSigning: values['allow-remote-signing'] === true,
    target: { adminUrl: values['admin-url'], dataDir: values['data-dir'] },
  };
}

export async function forward(args: string[]): Promise<void> {
  const options = parse(args);
  if (!options) {
    console.log(FORWARD_HELP);
    return;
  }
  const client = AdminClient.fromTarget(options.target);
  const webhook = await findWebhook(client, options.webhook);
  const refusal =
    webhook.authMode === 'signature' && options.sign
      ? signingRefusal(new URL(options.url), webhook.signatureScheme, options.allowRemoteSigning)
      : null;
  // Said before anything is sent, with the flags that change it (the relay refuses each send too).
  if (refusal !== null) {
    const flags = sendsSecretItself(webhook.signatureScheme)
      ? '--no-sign'
      : '--allow-remote-signing or --no-sign';
    throw new UsageError(`forward: ${refusal} (${flags})`);
  }
  const start = await client.call('deliveries.forwardBacklog', {
    uid: webhook.uid,
    url: options.url,
    limit: 1,
  });
  let after: string;
  let from: string;
  if (options.since !== undefined) {
    after = options.since;
    from = `after ${options.since} (--since)`;
  } else if (options.fromNow || start.place === null) {
    after = start.newest ?? BEFORE_EVERYTHING;
    from = options.fromNow
      ? 'with the next delivery (--from-now)'
      : 'with the next delivery (nothing was forwarded to this URL before)';
  } else {
    after = start.place;
    from = `after ${start.place}, the last delivery forwarded to this URL`;
  }
  const signing =
    webhook.authMode === 'signature' && options.sign
      ? `, signed as ${webhook.signatureScheme} with the webhook's own secret`
      : '';
  console.log(
    `Forwarding ${webhook.name} (${webhook.uid}) to ${options.url}${signing}.\n` +
      `Starting ${from}. Ctrl-C to stop.`,
  );

  const stop = new AbortController();
  const onSignal = (): void => {
    // A second Ctrl-C does not wait for the forward in flight.
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const wakeups = new DeliveryWakeups(client, webhook.uid, stop.signal);
  const listening = wakeups.listen();
  const forwarder = new Forwarder({
    client,
    webhookUid: webhook.uid,
    url: options.url,
    sign: options.sign,
    allowRemoteSigning: options.allowRemoteSigning,
    after,
    wakeups,
    signal: stop.signal,
    print: (line) => console.log(line),
  });
  try {
    await forwarder.run();
  } finally {
    stop.abort();
    await listening;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const last = forwarder.lastForwarded;
  console.log(
    last === null
      ? 'Stopped. Nothing was forwarded this time.'
      : `Stopped after forwarding ${last}; the next run continues after it.`,
  );
}
