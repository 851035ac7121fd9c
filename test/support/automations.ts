import type { Automation } from '../../src/shared/contract/automations.js';
import type { ExecutorConfig } from '../../src/shared/contract/executors.js';
import type { Run, RunDetail, RunStatus } from '../../src/shared/contract/runs.js';
import type { TestRelay } from './relay.js';
import { waitFor } from './wait.js';

export type { Automation, Run, RunDetail, RunStatus };

type Api = Pick<TestRelay, 'api'>;

/** A Webhook trigger as seed §2.3 spells it. */
export function webhookTrigger(webhookIds: string[], payload?: Record<string, unknown>) {
  return {
    provider: 'webhook',
    event: 'received',
    filter:
      payload === undefined ? { webhook_ids: webhookIds } : { webhook_ids: webhookIds, payload },
  };
}

export async function createAutomation(
  relay: Api,
  input: { name: string; prompt?: string; enabled?: boolean; triggers: unknown[] },
): Promise<Automation> {
  const response = await relay.api<Automation>('POST', '/api/automations', {
    prompt: `Handle the ${input.name} event.`,
    ...input,
  });
  if (response.status !== 201)
    throw new Error(`create automation: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Sets the default factory's executor through the management API, as the Settings page does. */
export async function setExecutor(relay: Api, executor: Partial<ExecutorConfig>): Promise<void> {
  const response = await relay.api('PATCH', '/api/factories/default', { executor });
  if (response.status !== 200) throw new Error(`set executor: ${JSON.stringify(response.body)}`);
}

export async function getRun(relay: Api, id: string): Promise<RunDetail> {
  const response = await relay.api<RunDetail>('GET', `/api/runs/${id}`);
  if (response.status !== 200) throw new Error(`reading ${id}: ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function listRuns(
  relay: Api,
  query = '',
): Promise<{ items: Run[]; nextBefore: string | null }> {
  const response = await relay.api<{ items: Run[]; nextBefore: string | null }>(
    'GET',
    `/api/runs${query}`,
  );
  if (response.status !== 200) throw new Error(`listing runs: ${JSON.stringify(response.body)}`);
  return response.body;
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
