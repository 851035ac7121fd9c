import type { ReactNode } from 'react';
import type { TeamSecret } from '../../../shared/contract/secrets.js';
import { routeHref } from '../../app/router.js';

/** The webhooks a secret authenticates, each a link to its detail. */
export function UsedByList({ users }: { users: TeamSecret['usedBy'] }): ReactNode {
  if (users.length === 0) return <span className="muted">no webhook</span>;
  return (
    <ul className="used-by">
      {users.map((user) => (
        <li key={user.uid}>
          <a href={routeHref('webhooks', user.uid)}>{user.name}</a>
        </li>
      ))}
    </ul>
  );
}
