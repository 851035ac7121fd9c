import type { ReactNode } from 'react';

export function RunsPage({ route }: { route: string[] }): ReactNode {
  return <h1>{route.join('/')}</h1>;
}
