import type { ReactNode } from 'react';

export function WebhooksPage({ route }: { route: string[] }): ReactNode {
  return <h1>{route.join('/')}</h1>;
}
