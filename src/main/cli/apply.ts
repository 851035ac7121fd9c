import { resolve } from 'node:path';
import { parseCommandLine } from './command-line.js';
import type { PlanItem } from '../../shared/contract/factories.js';
import { AdminClient } from './admin-client.js';
import { UsageError } from './usage.js';

export const APPLY_HELP = `Usage:
  hookport apply <dir> [--dry-run] [--factory F] [--admin-url URL] [--data-dir D]

Makes a running relay's factory match a definition directory (webhooks/<name>.yaml,
automations/<name>.md) and keeps it managed by that directory (the relay then watches it).
Prints the plan: create / update / delete / unchanged per file. With --dry-run, only the plan.
Exit 0 when applied (or planned), 1 when a definition is refused (the messages name
file:line: key), 2 on a wrong command line. The relay must run on this machine: it reads <dir>.
`;

const pad = (text: string, width: number): string => text.padEnd(width);

/** One plan line: `create     webhook     github-prod   webhooks/github-prod.yaml   wh_…`. */
export function formatPlan(items: PlanItem[]): string[] {
  const where = (item: PlanItem): string => item.file ?? '(no file)';
  const nameWidth = Math.max(4, ...items.map((i) => i.name.length));
  const fileWidth = Math.max(4, ...items.map((i) => where(i).length));
  return items.map((item) => {
    const changes = item.changes.length > 0 ? `  [${item.changes.join(', ')}]` : '';
    const note = item.note ? `\n             ${item.note}` : '';
    const columns = [
      pad(item.action, 10),
      pad(item.kind, 10),
      pad(item.name, nameWidth),
      pad(where(item), fileWidth),
    ];
    return `${columns.join(' ')}  ${item.id ?? ''}${changes}`.trimEnd() + note;
  });
}

export async function apply(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandLine({
    args,
    options: {
      'dry-run': { type: 'boolean' },
      factory: { type: 'string' },
      'admin-url': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(APPLY_HELP);
    return;
  }
  const [dir, ...extra] = positionals;
  if (dir === undefined) throw new UsageError('apply: name the definition directory.');
  if (extra.length > 0)
    throw new UsageError(`apply: one directory at a time (got "${extra.join(' ')}" too).`);
  const client = AdminClient.fromTarget({
    adminUrl: values['admin-url'],
    dataDir: values['data-dir'],
  });
  const result = await client.call('factories.sync', {
    id: values.factory ?? 'default',
    dir: resolve(dir),
    dryRun: values['dry-run'] ?? false,
  });
  const counts = (['create', 'update', 'delete', 'unchanged'] as const)
    .map((action) => `${result.items.filter((i) => i.action === action).length} ${action}`)
    .join(', ');
  const lines = [
    `${result.applied ? 'Applied' : 'Plan for'} ${result.definitionsDir} to factory "${result.factory}": ${counts}.`,
    ...formatPlan(result.items),
  ];
  if (result.ignored.length > 0)
    lines.push(`ignored (not a definition): ${result.ignored.join(', ')}`);
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  if (!result.applied) lines.push('Nothing was changed (--dry-run).');
  console.log(lines.join('\n'));
}
