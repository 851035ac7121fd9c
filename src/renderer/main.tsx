// The shared sheets first, so that each page's own sheet (imported with the page) refines them.
import './styles/base.css';
import './styles/controls.css';
import './styles/feedback.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { startFirstReads } from './app/first-reads.js';
import { preloadPage } from './boot/page-chunks.js';
import { currentRoute } from './app/router.js';
import { pickClient } from './client/pick-client.js';

// The boot script started these reads; here they are taken as contract calls, before React runs.
const route = currentRoute();
const client = pickClient();
startFirstReads(client, route);

// The first render waits for the page's chunk (already on its way), so that React never shows
// Suspense's fallback, which holds the page back for its reveal throttle once shown.
void preloadPage(route[0]).then(() => {
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
});
