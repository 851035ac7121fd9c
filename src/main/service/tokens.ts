import { ApiError } from '../../shared/errors.js';
import { newTokenId } from '../ids.js';
import { hashToken, newApiTokenValue } from '../admin/token-values.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceHandlers } from './handlers.js';
import { iso, isoOrNull } from './to-json.js';
import type { ApiTokenRecord } from '../store/tokens.js';

const tokenJson = (t: ApiTokenRecord) => ({
  id: t.id,
  name: t.name,
  role: t.role,
  createdAt: iso(t.createdAt),
  lastUsedAt: isoOrNull(t.lastUsedAt),
});

export function tokenHandlers(
  deps: ServiceDeps,
): Pick<ServiceHandlers, 'tokens.list' | 'tokens.create' | 'tokens.delete'> {
  return {
    'tokens.list': async () => ({ items: (await deps.tokens.list()).map(tokenJson) }),
    'tokens.create': ({ name, role }) =>
      deps.writes.run(async () => {
        const value = newApiTokenValue();
        const record = { id: newTokenId(), name, role, createdAt: deps.now(), lastUsedAt: null };
        await deps.tokens.insert({ ...record, hash: hashToken(value) });
        deps.events.emit({ type: 'changed', resource: 'tokens' });
        return { token: tokenJson(record), value };
      }),
    'tokens.delete': ({ id }) =>
      deps.writes.run(async () => {
        if (!(await deps.tokens.revoke(id, deps.now())))
          throw new ApiError('not_found', `No token ${id}.`);
        deps.events.emit({ type: 'changed', resource: 'tokens' });
        return { id, deleted: true as const };
      }),
  };
}
