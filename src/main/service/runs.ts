import { RERUN_MANY_MAX, type Run } from '../../shared/contract/runs.js';
import { ApiError } from '../../shared/errors.js';
import { newRunId } from '../ids.js';
import type { RunRecord } from '../store/runs.js';
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
  reruns: r.reruns,
  httpStatus: r.httpStatus,
});

export function runHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'runs.list' | 'runs.get' | 'runs.rerun' | 'runs.rerunMany'> {
  const requireRun = async (id: string): Promise<RunRecord> => {
    const run = await deps.runs.get(id);
    if (!run)
      throw new ApiError('not_found', `No run ${id}; it may have been pruned with its delivery.`);
    return run;
  };

  return {
    'runs.list': async ({ automation, status, limit, before }) => {
      const page = await deps.runs.page({
        automation: automation ?? null,
        status: status ?? null,
        before: before ?? null,
        limit,
      });
      return { items: page.items.map(runJson), nextBefore: page.nextBefore };
    },

    'runs.get': async ({ id }) => {
      const run = await requireRun(id);
      const payload = (await deps.runs.payloadOf(run.deliveryId))?.toString('utf8') ?? null;
      // A command still running shows what it has printed so far.
      const output =
        run.status === 'running' ? (deps.dispatcher.liveOutput(id) ?? run.output) : run.output;
      return { ...runJson(run), input: run.input, payload, output };
    },

    // By hand only: the new run has the same input and delivery, and says which run it repeats.
    'runs.rerun': ({ id }) =>
      deps.writes.run(async () => {
        const run = await requireRun(id);
        if (run.status !== 'failed' && run.status !== 'interrupted') {
          throw new ApiError(
            'conflict',
            `${id} is ${run.status}; only failed or interrupted runs can be re-run.`,
          );
        }
        const refusal = await whyNotRerun(deps, run);
        if (refusal) throw new ApiError('conflict', refusal);
        const created = (await insertReruns(deps, [run]))[0]!;
        deps.dispatcher.wake();
        return runJson(created);
      }),

    'runs.rerunMany': ({ status, automationId, since, dryRun }) =>
      deps.writes.run(async () => {
        const found = await deps.runs.rerunCandidates(
          { status, automation: automationId ?? null, since: since ?? null },
          RERUN_MANY_MAX,
        );
        // The store tells them apart: an automation deleted, or else a payload pruned.
        const skipped = found.cannot.map((run) => ({
          id: run.id,
          reason: run.factoryId === null ? automationDeleted(run) : payloadPruned(run),
        }));
        const runnable = found.items;
        const remaining = found.total - found.items.length;
        if (dryRun) return { count: runnable.length, runs: [], skipped, remaining };
        const created = (await insertReruns(deps, runnable)).map(runJson);
        if (created.length > 0) deps.dispatcher.wake();
        deps.log.info(
          `[runs] re-ran ${created.length} ${status} run(s)${automationId ? ` of ${automationId}` : ''}` +
            (skipped.length > 0 ? `; ${skipped.length} skipped` : ''),
        );
        return { count: created.length, runs: created, skipped, remaining };
      }),
  };
}

/** Why a failed or interrupted run cannot be re-run now; null when it can. */
async function whyNotRerun(deps: FullServiceDeps, run: RunRecord): Promise<string | null> {
  const latest = run.reruns[run.reruns.length - 1];
  if (latest !== undefined)
    return `${run.id} was already re-run as ${latest}; re-run that one instead.`;
  if (run.factoryId === null) return automationDeleted(run);
  if (!(await deps.runs.payloadOf(run.deliveryId))) return payloadPruned(run);
  return null;
}

const automationDeleted = (run: RunRecord): string =>
  `The automation of ${run.id} was deleted; there is nothing to re-run.`;
const payloadPruned = (run: RunRecord): string =>
  `The payload of ${run.deliveryId} is no longer stored.`;

/** New queued runs with the same input, each naming the run it repeats; one transaction. */
async function insertReruns(
  deps: FullServiceDeps,
  runs: readonly RunRecord[],
): Promise<RunRecord[]> {
  const now = deps.now();
  const fresh = runs.map((run) => ({
    id: newRunId(now),
    automationId: run.automationId,
    deliveryId: run.deliveryId,
    webhookUid: run.webhookUid,
    input: run.input,
    createdAt: now,
    rerunOf: run.id,
  }));
  await deps.runs.insertMany(fresh);
  for (const run of fresh) {
    deps.events.emit({
      type: 'run',
      run: {
        id: run.id,
        automationId: run.automationId,
        deliveryId: run.deliveryId,
        status: 'queued',
      },
    });
  }
  const created: RunRecord[] = [];
  for (const run of fresh) created.push((await deps.runs.get(run.id))!);
  return created;
}
