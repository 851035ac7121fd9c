// The base sheet first, so that each page's own sheet (imported with the page) refines it.
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { pickClient } from './client/pick-client.js';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App client={pickClient()} />
    </StrictMode>,
  );
}
