import type { ReactNode } from 'react';

export function AutomationsPage({ route }: { route: string[] }): ReactNode {
  return <h1>{route.join('/')}</h1>;
}
