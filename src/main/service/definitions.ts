import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';

export function definitionHandlers(deps: ServiceDeps): Pick<ServiceHandlers, 'factories.sync'> {
  return {
    'factories.sync': ({ id, dir, dryRun }) => deps.definitions.sync(id, { dir, dryRun }),
  };
}
