import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { pageChunks, type PageLoader } from '../boot/page-chunks.js';

/**
 * A page's chunk as a React component. Once fetched (the boot script starts the first screen's
 * page), React gets it without suspending: a Suspense fallback, once shown, holds the page back
 * for React's reveal throttle (300 ms), most of the first screen's time on a fast relay.
 */
function lazyPage<P>(chunk: PageLoader<P>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const page = chunk.loaded();
    return (
      page
        ? // A thenable that answers at once: React's lazy reads it in the same render.
          {
            then: (resolve: (m: { default: ComponentType<P> }) => void) =>
              resolve({ default: page }),
          }
        : chunk.load().then((loaded) => ({ default: loaded }))
    ) as Promise<{ default: ComponentType<P> }>;
  });
}

/** The chunks are the app's own files (the CSP's script-src 'self'). */
export const WebhooksPage = lazyPage(pageChunks.webhooks);
export const AutomationsPage = lazyPage(pageChunks.automations);
export const RunsPage = lazyPage(pageChunks.runs);
export const SecretsPage = lazyPage(pageChunks.secrets);
export const SettingsPage = lazyPage(pageChunks.settings);
export const RefusedPage = lazyPage(pageChunks.refused);
