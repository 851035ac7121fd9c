import type { ComponentType } from 'react';

/** A page's chunk: fetched once, by whoever asks first (the boot script or the page's render). */
export interface PageLoader<P> {
  /** Starts fetching the chunk (once; again after a failure); answers the page's component. */
  load: () => Promise<ComponentType<P>>;
  /** The component, once fetched. */
  loaded: () => ComponentType<P> | undefined;
}

function pageLoader<P>(fetchPage: () => Promise<ComponentType<P>>): PageLoader<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let page: ComponentType<P> | undefined;
  return {
    load() {
      loading ??= fetchPage().then(
        (fetched) => (page = fetched),
        (error: unknown) => {
          loading = undefined; // the next render asks again
          throw error;
        },
      );
      return loading;
    },
    loaded: () => page,
  };
}

type Rest = { route: string[] };

/**
 * Each page is its own chunk: the first screen loads only the shell and its own page. No React
 * here (only its types), so that the boot script starts the page's chunk before React arrives.
 */
export const pageChunks = {
  webhooks: pageLoader<Rest>(() =>
    import('../pages/webhooks/WebhooksPage.js').then((m) => m.WebhooksPage),
  ),
  automations: pageLoader<Rest>(() =>
    import('../pages/automations/AutomationsPage.js').then((m) => m.AutomationsPage),
  ),
  runs: pageLoader<Rest>(() => import('../pages/runs/RunsPage.js').then((m) => m.RunsPage)),
  secrets: pageLoader<object>(() =>
    import('../pages/secrets/SecretsPage.js').then((m) => m.SecretsPage),
  ),
  settings: pageLoader<object>(() =>
    import('../pages/settings/SettingsPage.js').then((m) => m.SettingsPage),
  ),
  refused: pageLoader<Rest>(() =>
    import('../pages/refused/RefusedPage.js').then((m) => m.RefusedPage),
  ),
};

/**
 * Fetches the chunk of the page a route shows (the Webhooks page for an empty or unknown one);
 * settles when it is in (a failure too: the page's own render fetches again and says why).
 */
export function preloadPage(section: string | undefined): Promise<void> {
  const chunk =
    (pageChunks as Record<string, PageLoader<never> | undefined>)[section ?? 'webhooks'] ??
    pageChunks.webhooks;
  return chunk.load().then(
    () => undefined,
    () => undefined,
  );
}
