import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

interface PageChunk<P> {
  Page: LazyExoticComponent<ComponentType<P>>;
  /** Starts fetching the chunk (once); the entry script calls it for the page the URL names. */
  preload: () => Promise<unknown>;
}

/**
 * A page in its own chunk, fetched when first shown or when preloaded. Once fetched, React gets
 * it without suspending: a Suspense fallback, once shown, holds the page back for React's
 * reveal throttle (300 ms), most of the first screen's time on a fast relay.
 */
function pageChunk<P>(load: () => Promise<ComponentType<P>>): PageChunk<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let loaded: ComponentType<P> | undefined;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (page) => (loaded = page),
      (error: unknown) => {
        loading = undefined; // the next render asks again
        throw error;
      },
    );
    return loading;
  };
  const Page = lazy(
    () =>
      (loaded
        ? // A thenable that answers at once: React's lazy reads it in the same render.
          {
            then: (resolve: (m: { default: ComponentType<P> }) => void) =>
              resolve({ default: loaded! }),
          }
        : preload().then((page) => ({ default: page }))) as Promise<{ default: ComponentType<P> }>,
  );
  return { Page, preload };
}

const webhooks = pageChunk(() =>
  import('../pages/webhooks/WebhooksPage.js').then((m) => m.WebhooksPage),
);
const automations = pageChunk(() =>
  import('../pages/automations/AutomationsPage.js').then((m) => m.AutomationsPage),
);
const runs = pageChunk(() => import('../pages/runs/RunsPage.js').then((m) => m.RunsPage));
const secrets = pageChunk(() =>
  import('../pages/secrets/SecretsPage.js').then((m) => m.SecretsPage),
);
const settings = pageChunk(() =>
  import('../pages/settings/SettingsPage.js').then((m) => m.SettingsPage),
);
const refused = pageChunk(() =>
  import('../pages/refused/RefusedPage.js').then((m) => m.RefusedPage),
);

/**
 * Each page is its own chunk, fetched when first shown: the first screen loads only the shell
 * and its own page. The chunks are the app's own files (the CSP's script-src 'self').
 */
export const WebhooksPage = webhooks.Page;
export const AutomationsPage = automations.Page;
export const RunsPage = runs.Page;
export const SecretsPage = secrets.Page;
export const SettingsPage = settings.Page;
export const RefusedPage = refused.Page;

const BY_SECTION: Record<string, { preload: () => Promise<unknown> } | undefined> = {
  webhooks,
  automations,
  runs,
  secrets,
  settings,
  refused,
};

/**
 * Fetches the chunk of the page a route shows (the Webhooks page for an empty or unknown one)
 * while the shell asks the relay who is signed in, instead of after.
 */
export function preloadPage(section: string | undefined): void {
  void (BY_SECTION[section ?? 'webhooks'] ?? webhooks).preload().catch(() => {
    // The page's own render fetches again and shows what went wrong.
  });
}
