import {
  LINK_KINDS,
  PROVIDER_NAMES,
  type Link,
  type LinkKind,
} from '../../shared/contract/links.js';
import { AdminClient } from './admin-client.js';
import { parseCommandLine } from './command-line.js';
import { findWebhook } from './forward.js';
import { UsageError } from './usage.js';

export const LINK_HELP = `Usage:
  hookport link <webhook name or uid> <kind>:<target> --token-secret NAME
                [--api-base-url URL] [--no-keep-pointed] [--no-recover]
  hookport link <webhook name or uid> --check      (exit status 1 when it finds a problem)
  hookport link <webhook name or uid> --remove
                [--admin-url URL] [--data-dir D]

Links a webhook to the provider's hook that sends to it (PRODUCT §19): the relay keeps the hook
pointed at the webhook's ingress URL and asks the provider to deliver again what failed.
Kinds: github (owner/repo#<hook id>, org:<org>#<hook id>), gitlab (<project>#<hook id>),
stripe (we_…). The token is a team secret, sent only to the link's API base URL.
`;

export const RECOVER_HELP = `Usage:
  hookport recover <webhook name or uid> [--since DURATION|ISO] [--dry-run]
                   [--admin-url URL] [--data-dir D]

Asks the linked provider for the deliveries to this webhook that failed (since the last recovery,
or --since: 6h, 2d, 30m, or an ISO 8601 time) and asks it to send each again, one line each:
time  provider-delivery-id  event  → asked|already here|failed. --dry-run asks nothing.
`;

const target = (values: { 'admin-url'?: string; 'data-dir'?: string }) =>
  AdminClient.fromTarget({ adminUrl: values['admin-url'], dataDir: values['data-dir'] });

const common = {
  'admin-url': { type: 'string' },
  'data-dir': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** "GitHub hook on acme/api#123 sends here · active" and each problem on a line of its own. */
export function describeLink(link: Link): string {
  const provider = PROVIDER_NAMES[link.kind];
  const lines = [`Linked to ${provider} ${link.target} (${link.apiBaseUrl})`];
  const check = link.check;
  if (check) {
    const state = check.active === null ? 'state unknown' : check.active ? 'active' : 'inactive';
    lines.push(
      `  check ${check.at}: ${check.pointsHere ? 'sends here' : check.hookUrl ? `sends to ${check.hookUrl}` : 'hook not read'} · ${state}${check.ok ? ' · ok' : ''}`,
    );
    for (const problem of check.problems) lines.push(`  ✗ ${problem}`);
  }
  const recovery = link.recovery;
  if (recovery) {
    lines.push(
      `  last recovery ${recovery.at}: asked ${provider} for ${recovery.asked} failed deliveries; ${recovery.arrived ?? 0} arrived, ${recovery.alreadyHere} already here`,
    );
    for (const error of recovery.errors) lines.push(`  ✗ ${error}`);
  }
  return lines.join('\n');
}

export async function link(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args,
    options: {
      ...common,
      'token-secret': { type: 'string' },
      'api-base-url': { type: 'string' },
      'no-keep-pointed': { type: 'boolean' },
      'no-recover': { type: 'boolean' },
      check: { type: 'boolean' },
      remove: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(LINK_HELP);
    return;
  }
  const [nameOrUid, spec, ...extra] = positionals;
  if (nameOrUid === undefined) throw new UsageError('link: name the webhook to link.');
  if (extra.length > 0) throw new UsageError(`link: unexpected "${extra.join(' ')}".`);
  const client = target(values);
  const webhook = await findWebhook(client, nameOrUid);
  if (values.check) {
    const checked = await client.call('links.check', { uid: webhook.uid });
    console.log(describeLink(checked));
    // A script or cron job running --check learns of a problem from the exit status.
    if (checked.check && !checked.check.ok) process.exitCode = 1;
    return;
  }
  if (values.remove) {
    await client.call('links.delete', { uid: webhook.uid });
    console.log(`Unlinked ${webhook.name}; the provider's hook is kept as it is.`);
    return;
  }
  if (spec === undefined) {
    const current = await client.call('links.get', { uid: webhook.uid });
    console.log(current ? describeLink(current) : `${webhook.name} has no provider link.`);
    return;
  }
  const colon = spec.indexOf(':');
  const kind = spec.slice(0, colon) as LinkKind;
  if (colon < 0 || !LINK_KINDS.includes(kind)) {
    throw new UsageError(
      `link: "${spec}" is not <kind>:<target>, kind one of ${LINK_KINDS.join(', ')}.`,
    );
  }
  const tokenSecretName = values['token-secret'];
  if (!tokenSecretName) throw new UsageError('link: --token-secret NAME is required.');
  const linked = await client.call('links.put', {
    uid: webhook.uid,
    kind,
    target: spec.slice(colon + 1),
    tokenSecretName,
    ...(values['api-base-url'] ? { apiBaseUrl: values['api-base-url'] } : {}),
    keepPointed: !values['no-keep-pointed'],
    recover: !values['no-recover'],
  });
  console.log(describeLink(linked));
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };

/** `6h`, `2d`, `30m` before now, or an ISO 8601 time, as epoch ms. */
export function parseSince(text: string, now: number): number {
  const duration = /^(\d+)([smhd])$/.exec(text);
  if (duration) return now - Number(duration[1]) * UNITS[duration[2]!]!;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) {
    throw new UsageError(
      `recover: --since takes a duration (6h, 2d, 30m) or an ISO 8601 time, not "${text}".`,
    );
  }
  return ms;
}

export async function recover(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args,
    options: { ...common, since: { type: 'string' }, 'dry-run': { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(RECOVER_HELP);
    return;
  }
  const [nameOrUid, ...extra] = positionals;
  if (nameOrUid === undefined) throw new UsageError('recover: name the webhook to recover.');
  if (extra.length > 0)
    throw new UsageError(`recover: one webhook at a time (got "${extra.join(' ')}" too).`);
  const since = values.since === undefined ? undefined : parseSince(values.since, Date.now());
  const client = target(values);
  const webhook = await findWebhook(client, nameOrUid);
  const result = await client.call('links.recover', {
    uid: webhook.uid,
    ...(since === undefined ? {} : { since }),
    dryRun: values['dry-run'] ?? false,
  });
  const lines = result.items.map(
    (item) => `${item.at}  ${item.providerDeliveryId}  ${item.event ?? '-'}  → ${item.outcome}`,
  );
  const r = result.recovery;
  if (r) {
    lines.push(
      values['dry-run']
        ? `Dry run: nothing asked. ${lines.length} failed deliveries since ${r.since}.`
        : `Asked ${PROVIDER_NAMES[result.kind]} for ${r.asked}; ${r.redelivered} accepted to send, ${r.alreadyHere} already here, ${r.failed} failed.`,
    );
    for (const error of r.errors) lines.push(`✗ ${error}`);
  }
  console.log(lines.join('\n'));
  if (r && r.errors.length > 0) process.exitCode = 1;
}
