import type { Automation } from '../../src/shared/contract/automations.js';
import type { MethodInput, MethodOutput } from '../../src/shared/contract/index.js';
import type { PayloadFilter } from '../../src/shared/filter/types.js';
import type { Run, RunDetail, RunStatus } from '../../src/shared/contract/runs.js';
import type { TestRelay } from './relay.js';
import { waitFor } from './wait.js';

export type { Automation, Run, RunDetail, RunStatus };

type Api = Pick<TestRelay, 'call'>;

/** A Webhook trigger as seed §2.3 spells it. */
export function webhookTrigger(webhookIds: string[], payload?: PayloadFilter) {
  return {
    provider: 'webhook' as const,
    event: 'received' as const,
    filter:
      payload === undefined ? { webhook_ids: webhookIds } : { webhook_ids: webhookIds, payload },
  };
}

export function createAutomation(
  relay: Api,
  input: Omit<MethodInput<'automations.create'>, 'prompt'> & { prompt?: string },
): Promise<Automation> {
  return relay.call('automations.create', { prompt: `Handle the ${input.name} event.`, ...input });
}

/** Sets the default factory's executor through the management API, as the Settings page does. */
export async function setExecutor(
  relay: Api,
  executor: NonNullable<MethodInput<'factories.update'>['executor']>,
): Promise<void> {
  await relay.call('factories.update', { id: 'default', executor });
}

export function getRun(relay: Api, id: string): Promise<RunDetail> {
  return relay.call('runs.get', { id });
}

/** `query` as fields, or (for older callers) as a query string such as `?status=failed`. */
export function listRuns(
  relay: Api,
  query: MethodInput<'runs.list'> | string = {},
): Promise<MethodOutput<'runs.list'>> {
  const input =
    typeof query === 'string'
      ? (Object.fromEntries(new URLSearchParams(query)) as MethodInput<'runs.list'>)
      : query;
  return relay.call('runs.list', input);
}

const FINISHED: RunStatus[] = ['succeeded', 'failed', 'interrupted'];

/** The run once it is in one of `statuses` (by default: finished, whichever way). */
export function waitForRun(
  relay: Api,
  id: string,
  statuses: RunStatus[] = FINISHED,
  timeoutMs = 15_000,
): Promise<RunDetail> {
  return waitFor(
    async () => {
      const run = await getRun(relay, id);
      return statuses.includes(run.status) ? run : null;
    },
    `${id} to be ${statuses.join(' or ')}`,
    { timeoutMs, intervalMs: 25 },
  );
}
