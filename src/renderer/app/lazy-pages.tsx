import { lazy } from 'react';

/**
 * Each page is its own chunk, fetched when first shown: the first screen loads only the shell
 * and the Webhooks page. The chunks are the app's own files (the CSP's script-src 'self').
 */
export const WebhooksPage = lazy(() =>
  import('../pages/webhooks/WebhooksPage.js').then((m) => ({ default: m.WebhooksPage })),
);
export const AutomationsPage = lazy(() =>
  import('../pages/automations/AutomationsPage.js').then((m) => ({ default: m.AutomationsPage })),
);
export const RunsPage = lazy(() =>
  import('../pages/runs/RunsPage.js').then((m) => ({ default: m.RunsPage })),
);
export const SecretsPage = lazy(() =>
  import('../pages/secrets/SecretsPage.js').then((m) => ({ default: m.SecretsPage })),
);
export const SettingsPage = lazy(() =>
  import('../pages/settings/SettingsPage.js').then((m) => ({ default: m.SettingsPage })),
);
export const RefusedPage = lazy(() =>
  import('../pages/refused/RefusedPage.js').then((m) => ({ default: m.RefusedPage })),
);
