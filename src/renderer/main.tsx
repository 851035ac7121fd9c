// The shared sheets first, so that each page's own sheet (imported with the page) refines them.
import './styles/base.css';
import './styles/controls.css';
import './styles/feedback.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { startFirstReads } from './app/first-reads.js';
import { preloadPage } from './app/lazy-pages.js';
import { currentRoute } from './app/router.js';
import { pickClient } from './client/pick-client.js';

// The page's chunk and the reads its first screen waits on start together, before React renders.
const route = currentRoute();
const client = pickClient();
preloadPage(route[0]);
startFirstReads(client, route);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App client={client} />
    </StrictMode>,
  );
}
