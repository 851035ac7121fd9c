// The shared sheets first, so that each page's own sheet (imported with the page) refines them.
import './styles/base.css';
import './styles/controls.css';
import './styles/feedback.css';
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
