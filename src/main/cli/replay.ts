import { parseCommandLine } from './command-line.js';
import { DELIVERY_ID_PATTERN } from '../../shared/contract/common.js';
import { AdminClient } from './admin-client.js';
import { UsageError } from './usage.js';

export const REPLAY_HELP = `Usage:
  hookport replay <delivery-id> [--admin-url URL] [--data-dir D]

Re-evaluates an accepted delivery's stored payload against today's automations, through a running
relay. The replay is a new log entry linked to the original; the duplicate check is skipped on
purpose. Prints the new delivery ID and the runs it queued, with their status now. Exit 0 on
success, 1 when the relay refuses (not found, not Accepted, ...), 2 on a wrong command line.

  --admin-url URL   the relay's admin listener (default http://127.0.0.1:8788)
  --data-dir D      where to read admin-token (default $HOOKPORT_DATA_DIR or ~/.hookport);
                    HOOKPORT_ADMIN_TOKEN, when set, is used instead
`;

export async function replay(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args,
    options: {
      'admin-url': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(REPLAY_HELP);
    return;
  }
  const [deliveryId, ...extra] = positionals;
  if (deliveryId === undefined) throw new UsageError('replay: name the delivery to replay.');
  if (extra.length > 0)
    throw new UsageError(`replay: one delivery at a time (got "${extra.join(' ')}" too).`);
  if (!DELIVERY_ID_PATTERN.test(deliveryId)) {
    throw new UsageError(`replay: "${deliveryId}" is not a delivery ID (dlv_ and 26 characters).`);
  }
  const client = AdminClient.fromTarget({
    adminUrl: values['admin-url'],
    dataDir: values['data-dir'],
  });
  const result = await client.call('deliveries.replay', { id: deliveryId });
  const lines = [
    `Replayed ${deliveryId} as ${result.delivery_id} (duplicate check skipped on purpose).`,
  ];
  if (result.runs.length === 0) lines.push('No automation matches it today: no run queued.');
  for (const runId of result.runs) {
    const run = await client.call('runs.get', { id: runId });
    lines.push(`  ${runId}  ${run.automationName ?? run.automationId}  (${run.status})`);
  }
  console.log(lines.join('\n'));
}
