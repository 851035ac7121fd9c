import { ApiError } from '../../shared/errors.js';
import type { FullServiceDeps } from './automation-deps.js';
import type { ServiceHandlers } from './handlers.js';
import { executorFor } from './view-redaction.js';
import { requireFactory } from './webhooks.js';

export function executorHandlers(
  deps: FullServiceDeps,
): Pick<ServiceHandlers, 'factories.executor' | 'factories.update'> {
  return {
    'factories.executor': async ({ id }, caller) => {
      const executor = await deps.executors.get(id);
      if (!executor) throw new ApiError('not_found', `No factory "${id}".`);
      return {
        factory: id,
        executor: executorFor(caller.role, executor),
        mcpForRuns: await deps.settings.mcpForRuns(id),
      };
    },
    'factories.update': ({ id, executor, mcpForRuns }) =>
      deps.writes.run(async () => {
        await requireFactory(deps, id);
        if (executor) await deps.executors.set(id, executor);
        if (mcpForRuns !== undefined) await deps.settings.setMcpForRuns(id, mcpForRuns);
        await deps.onChanged('settings');
        // A higher concurrency (or a switch to record) may let queued runs go now.
        deps.dispatcher.wake();
        const saved = await deps.executors.get(id);
        if (!saved) throw new ApiError('not_found', `No factory "${id}".`);
        return { factory: id, executor: saved, mcpForRuns: await deps.settings.mcpForRuns(id) };
      }),
  };
}
