import type { ReactNode } from 'react';

export function SecretsPage(): ReactNode {
  return <h1>SecretsPage</h1>;
}
