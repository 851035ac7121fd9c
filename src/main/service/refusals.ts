import { REFUSALS_KEPT } from '../ingress/refusal-tally.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso } from './to-json.js';

export function refusalHandlers(deps: ServiceDeps): Pick<ServiceHandlers, 'refusals.list'> {
  return {
    'refusals.list': ({ limit, webhook }) =>
      Promise.resolve({
        items: deps.refusals.newest(limit, webhook).map((r) => ({ ...r, at: iso(r.at) })),
        counts: deps.refusals.countsSinceStart(),
        lastHour: deps.refusals.countsLastHour(deps.now()),
        kept: REFUSALS_KEPT,
      }),
  };
}
