import type { Run } from '../../shared/contract/runs.js';
import { ApiError } from '../../shared/errors.js';
import { newRunId } from '../ids.js';
import type { RunRecord } from '../store/runs-repo.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso, isoOrNull } from './to-json.js';

export const runJson = (r: RunRecord): Run => ({
  id: r.id,
  automationId: r.automationId,
  automationName: r.automationName,
  deliveryId: r.deliveryId,
  webhookUid: r.webhookUid,
  webhookName: r.webhookName,
  status: r.status,
  createdAt: iso(r.createdAt),
  startedAt: isoOrNull(r.startedAt),
  finishedAt: isoOrNull(r.finishedAt),
  exitCode: r.exitCode,
  error: r.error,
  rerunOf: r.rerunOf,
});

export function runHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'runs.list' | 'runs.get' | 'runs.rerun'> {
  const requireRun = (id: string): RunRecord => {
    const run = deps.runs.get(id);
    if (!run)
      throw new ApiError('not_found', `No run ${id}; it may have been pruned with its delivery.`);
    return run;
  };

  return {
    'runs.list': ({ automation, status, limit, before }) => {
      const page = deps.runs.page({
        automation: automation ?? null,
        status: status ?? null,
        before: before ?? null,
        limit,
      });
      return Promise.resolve({ items: page.items.map(runJson), nextBefore: page.nextBefore });
    },

    'runs.get': ({ id }) => {
      const run = requireRun(id);
      const payload = deps.runs.payloadOf(run.deliveryId)?.toString('utf8') ?? null;
      return Promise.resolve({ ...runJson(run), input: run.input, payload, output: run.output });
    },

    // By hand only: the new run has the same input and delivery, and says which run it repeats.
    'runs.rerun': ({ id }) =>
      deps.writes.run(() => {
        const run = requireRun(id);
        if (run.status !== 'failed' && run.status !== 'interrupted') {
          throw new ApiError(
            'conflict',
            `${id} is ${run.status}; only failed or interrupted runs can be re-run.`,
          );
        }
        if (run.factoryId === null) {
          throw new ApiError(
            'conflict',
            `The automation of ${id} was deleted; there is nothing to re-run.`,
          );
        }
        if (!deps.runs.payloadOf(run.deliveryId)) {
          throw new ApiError('conflict', `The payload of ${run.deliveryId} is no longer stored.`);
        }
        const now = deps.now();
        const rerunId = newRunId(now);
        deps.runs.insert({
          id: rerunId,
          automationId: run.automationId,
          deliveryId: run.deliveryId,
          webhookUid: run.webhookUid,
          input: run.input,
          createdAt: now,
          rerunOf: run.id,
        });
        deps.events.emit({
          type: 'run',
          run: {
            id: rerunId,
            automationId: run.automationId,
            deliveryId: run.deliveryId,
            status: 'queued',
          },
        });
        deps.dispatcher.wake();
        return runJson(deps.runs.get(rerunId)!);
      }),
  };
}
