import type { ReactNode } from 'react';

export function SettingsPage(): ReactNode {
  return <h1>SettingsPage</h1>;
}
